/// First-order low-pass gain k = dt / (τ + dt) as Q2.30 (0 < k ≤ 1), from dt and τ in Q30
/// seconds (Int64): one 64-bit division, rounded to nearest. Backward Euler, as the reference.
@inlinable
public func fixedLowPassGain(tau: Int64, dt: Int64) -> Int64 {
    guard tau > 0 else { return 1 << 30 }
    let denominator = tau &+ dt
    return ((dt &<< 30) &+ denominator / 2) / denominator
}

/// True when `dt` differs from `reference` by more than 2 % of it (the reference's
/// `FusionGains.dtTolerance`): |dt − ref| · 50 > ref. Always true for reference 0.
@inlinable @inline(__always)
func isStale(_ reference: Int64, for dt: Int64) -> Bool {
    (dt &- reference).magnitude &* 50 > reference.magnitude
}

/// The dt' for which `isStale(dt, for: dt')` is false, for dt ≥ 0: [dt − ⌊dt/50⌋, dt + ⌊dt/50⌋]
/// (|dt' − dt| · 50 > dt ⇔ |dt' − dt| > ⌊dt/50⌋ in integers) as its low end and width.
@inlinable
func freshDtRange(_ dt: Int64) -> (low: Int64, width: UInt64) {
    (dt &- dt / 50, UInt64(bitPattern: 2 &* (dt / 50)))
}

/// dt in [low, low + width]: one subtraction and one unsigned compare (below low wraps high).
@inlinable @inline(__always)
func isFresh(_ dt: Int64, low: Int64, width: UInt64) -> Bool {
    UInt64(bitPattern: dt &- low) <= width
}

/// The per-sample gains for the current dt (Q2.30 as Int64), recomputed only when dt moves by
/// more than 2 % (four divisions then): jittered timestamps cost nothing.
public struct FixedFusionGains: Sendable, Equatable {
    /// The dt these gains were made for (Q30 seconds); 0 = never.
    public var dt: Int64 = 0
    /// The dt they still serve: `isStale(dt, for:)` is false exactly inside [low, high]
    /// (|dt' − dt| ≤ ⌊dt / 50⌋), cut at the update's valid dt (< 1 s, and low ≥ 1 > 0): a dt
    /// inside is also one the update takes, so the per-sample path tests only this range (two
    /// compares) and the validity on the rare samples outside it. Empty before the first sample.
    public var freshDtLow: Int64 = 1
    public var freshDtHigh: Int64 = 0
    /// Rest bias: fraction of the gap to the low-passed rate closed per sample.
    public var restBias: Int64 = 0
    /// The rest test, the inclination correction and the in-motion bias estimate run every
    /// `biasDecimation`-th sample (16 while 16·dt ≤ 1/16 s, i.e. ≥ 256 Hz; else 8 while
    /// 8·dt ≤ 0.5 s; else 1); the acceleration and bias
    /// low-pass stages (τ_acc/2 each) with this gain for biasDecimation · dt.
    public var biasDecimation: Int32 = 1
    public var biasStage: Int64 = 1 << 30
    /// The in-motion bias estimate's low-pass stages (τ_acc/2 each) at 2·biasDecimation·dt: it
    /// runs on every second decimated run.
    public var motionBiasStage: Int64 = 1 << 30
    /// A magnetometer sample is used only when at least this long (Q30 s) has passed since the
    /// last one used: (biasDecimation − ½)·dt (see the reference).
    public var magneticMinimumInterval: Int64 = 0
    /// Each rest-reference stage at biasDecimation · dt.
    public var restStageDecimated: Int64 = 1 << 30
    /// The rest bias's gain over `biasDecimation` samples (Q30): its step runs on the decimated
    /// samples only, where the rest test and its mean change.
    public var restBiasDecimated: Int64 = 0
    /// The specific force goes into the almost-inertial frame in groups of 3 samples with
    /// biasDecimation 16, else sample by sample: see `FixedFusionDecimation.inertialForceSum`.
    public var forceGroupLength: Int32 = 1

    @inlinable public init() {}

    /// `isStale(self.dt, for: dt)`, from the precomputed bounds, or dt ≥ 1 s (see `freshDtHigh`).
    @inlinable @inline(__always)
    public func areStale(for dt: Int64) -> Bool { dt < freshDtLow || dt > freshDtHigh }

    @inlinable
    public init(coefficients c: FixedFusionCoefficients, dt: Int64) {
        self.dt = dt
        freshDtLow = dt &- dt / 50
        freshDtHigh = Swift.min(dt &+ dt / 50, (1 << 30) &- 1)
        restBias = fixedLowPassGain(tau: c.restBiasTau, dt: dt)
        biasDecimation = 16 &* dt <= 1 << 26 ? 16 : 8 &* dt <= 1 << 29 ? 8 : 1
        biasStage = fixedLowPassGain(tau: c.accelerometerTau / 2, dt: Int64(biasDecimation) &* dt)
        motionBiasStage = fixedLowPassGain(tau: c.accelerometerTau / 2, dt: Int64(2 &* biasDecimation) &* dt)
        magneticMinimumInterval = (Int64(2 &* biasDecimation &- 1) &* dt) &>> 1
        restStageDecimated = fixedLowPassGain(tau: c.restFilterTau / 2, dt: Int64(biasDecimation) &* dt)
        forceGroupLength = biasDecimation == 16 ? 3 : 1
        // N steps of gain k towards a reference that holds between decimated samples close
        // 1 − (1 − k)^N of the gap: one step of that gain on the decimated sample instead.
        var keeps = Int64(1) << 30
        for _ in 0..<biasDecimation { keeps = roundingShiftRight(keeps &* ((1 << 30) &- restBias), by: 30) }
        restBiasDecimated = (1 << 30) &- keeps
    }
}

/// The gains that run at the magnetometer's rate (its dt is the time since its last sample).
public struct FixedMagneticGains: Sendable, Equatable {
    public var dt: Int64 = 0
    public var heading: Int64 = 0
    /// The heading gain while the field is judged fixed to the earth: τ_mag / magneticRejectionFactor
    /// (0 with the device-fixed field test off).
    public var headingEarthField: Int64 = 0
    public var current: Int64 = 1 << 30
    public var reference: Int64 = 0
    /// `isStale(dt, for:)` as a range (only 0 before the first magnetometer sample: stale for
    /// every other dt, like `isStale(0, for:)`): one subtraction and one compare per sample
    /// used instead of two magnitudes and a multiply.
    public var freshDtLow: Int64 = 0
    public var freshDtWidth: UInt64 = 0

    @inlinable public init() {}

    /// `isStale(self.dt, for: dt)`, from the precomputed range.
    @inlinable @inline(__always)
    public func areStale(for dt: Int64) -> Bool { !isFresh(dt, low: freshDtLow, width: freshDtWidth) }

    @inlinable
    public init(coefficients c: FixedFusionCoefficients, dt: Int64) {
        self.dt = dt
        (freshDtLow, freshDtWidth) = freshDtRange(dt)
        heading = fixedLowPassGain(tau: c.magnetometerTau, dt: dt)
        headingEarthField = c.testsDeviceFixedField
            ? fixedLowPassGain(tau: c.magnetometerTau / Int64(Swift.max(c.parameters.magneticRejectionFactor, 1)), dt: dt) : 0
        current = fixedLowPassGain(tau: c.magneticCurrentTau, dt: dt)
        reference = fixedLowPassGain(tau: c.magneticReferenceTau, dt: dt)
    }
}
