#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// First-order low-pass gain for a time constant and a sample period: k = dt / (τ + dt).
/// Backward-Euler discretisation: stable for every dt, no exp, one division; 0 < k ≤ 1.
@inline(__always)
public func lowPassGain(tau: Double, dt: Double) -> Double {
    tau > 0 ? dt / (tau + dt) : 1
}

/// The per-sample gains derived from the parameters and the sample period. The update
/// recomputes them only when dt moves by more than `FusionGains.dtTolerance` (relative), so
/// jittered timestamps cost no divisions; a firmware build may use a table instead.
public struct FusionGains: Sendable, Equatable {
    /// Relative change of dt that triggers a recomputation.
    public static let dtTolerance = 0.02

    /// The sample period these gains were computed for (s); 0 = never computed.
    public var dt: Double = 0
    /// Rest bias: fraction of the gap to the low-passed rate closed per sample.
    public var restBias: Double = 0
    /// Motion bias: 1/τ, multiplies the correction angle (the dt cancels, see GyroBiasEstimator).
    public var motionBias: Double = 0
    /// The same before the offset was measured: 1/(τ_acc/2) (see `FusionState.biasMeasured`).
    public var unmeasuredMotionBias: Double = 0
    /// The rest test, the inclination correction and the in-motion bias estimate run every
    /// `biasDecimation`-th sample (16 while 16·dt ≤ 1/16 s — from 256 Hz, so the slow parts
    /// still run at ≥ 16 Hz — else 8 while 8·dt ≤ 0.5 s, else every sample), from the first one
    /// on: the bias and the low-passed gravity move slowly.
    public var biasDecimation = 1
    /// Each stage of the acceleration and bias low-passes (τ_acc/2) at biasDecimation · dt.
    public var biasStage: Double = 1
    /// Each stage of the in-motion bias estimate's low-passes (τ_acc/2) at 2·biasDecimation·dt:
    /// it runs on every second decimated sample (see `GyroBiasEstimator.update`).
    public var motionBiasStage: Double = 1
    /// A magnetometer sample is used only when at least this long has passed since the last
    /// one used ((biasDecimation − ½)·dt): a magnetometer at the sample rate runs at 1/N of it,
    /// one at 1/N rate or slower is unaffected (one at ¼ rate with N = 8: every second sample).
    public var magneticMinimumInterval: Double = 0
    /// Each stage of the rest-detection reference low-pass at biasDecimation · dt.
    public var restStageDecimated: Double = 1
    /// The rest bias's gain over `biasDecimation` samples, 1 − (1 − restBias)^N: its step runs
    /// on the decimated samples only, where the rest test and its mean change.
    public var restBiasDecimated: Double = 0
    /// The specific force goes into the almost-inertial frame in groups of this many samples
    /// (3 with biasDecimation 16, else 1): their sum rotated by the middle one's attitude (see
    /// `InclinationCorrection`).
    public var forceGroupLength = 1

    public init() {}

    public init(parameters p: FusionParameters, dt: Double) {
        self.dt = dt
        restBias = lowPassGain(tau: p.restBiasTau, dt: dt)
        motionBias = p.motionBiasTau > 0 ? 1 / p.motionBiasTau : 0
        unmeasuredMotionBias = p.motionBiasTau > 0 && p.accelerometerTau > 0 ? 2 / p.accelerometerTau : 0
        biasDecimation = 16 * dt <= 1.0 / 16 ? 16 : 8 * dt <= 0.5 ? 8 : 1
        biasStage = lowPassGain(tau: p.accelerometerTau / 2, dt: Double(biasDecimation) * dt)
        motionBiasStage = lowPassGain(tau: p.accelerometerTau / 2, dt: Double(2 * biasDecimation) * dt)
        // The step runs on the mean of the samples since the last one (see `update`): at
        // 18 Hz on BROAD's 286 Hz the mean holds what one sample every 8th held (one sample
        // every 16th lost 0.18° on trial 32).
        magneticMinimumInterval = (Double(biasDecimation) - 0.5) * dt
        restStageDecimated = lowPassGain(tau: p.restFilterTau / 2, dt: Double(biasDecimation) * dt)
        forceGroupLength = biasDecimation == 16 ? 3 : 1
        var keeps = 1.0
        for _ in 0..<biasDecimation { keeps *= 1 - restBias }
        restBiasDecimated = 1 - keeps
    }

    /// True when dt is far enough from the one these gains were made for.
    @inline(__always)
    public func isStale(for dt: Double) -> Bool {
        abs(dt - self.dt) > Self.dtTolerance * self.dt
    }
}

/// The gains that run at the magnetometer's rate (its dt is the time since the last mag sample).
public struct MagneticGains: Sendable, Equatable {
    public var dt: Double = 0
    public var heading: Double = 0
    /// The heading gain while the field is judged fixed to the earth: τ_mag / magneticRejectionFactor
    /// (0 with the test off, `deviceFixedFieldMaxRatio` = 0).
    public var headingEarthField: Double = 0
    public var current: Double = 1
    public var reference: Double = 0
    /// sin(magneticDipThreshold): the dip is compared as a sine.
    public var dipSineThreshold: Double = 0
    /// 1/magneticBiasTau (1/s; 0 = off): the vertical bias step is k·e times this.
    public var verticalBiasRate: Double = 0

    public init() {}

    public init(parameters p: FusionParameters, dt: Double) {
        self.dt = dt
        heading = lowPassGain(tau: p.magnetometerTau, dt: dt)
        headingEarthField = p.deviceFixedFieldMaxRatio > 0
            ? lowPassGain(tau: p.magnetometerTau / max(p.magneticRejectionFactor, 1), dt: dt) : 0
        current = lowPassGain(tau: p.magneticCurrentTau, dt: dt)
        reference = lowPassGain(tau: p.magneticReferenceTau, dt: dt)
        dipSineThreshold = sin(p.magneticDipThreshold)
        verticalBiasRate = p.magneticBiasTau > 0 ? 1 / p.magneticBiasTau : 0
    }

    @inline(__always)
    public func isStale(for dt: Double) -> Bool {
        abs(dt - self.dt) > FusionGains.dtTolerance * self.dt
    }
}
