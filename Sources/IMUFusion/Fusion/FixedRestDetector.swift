/// Rest: rotation rate and acceleration have both stayed close to their own low-passed
/// references for `restMinDuration` (the reference's `RestDetector`). Squared deviations
/// (Q48) against squared thresholds: no square root. The low-passed rate (Q40, rad/s) is
/// also the rest bias measurement.
public struct FixedRestDetector: Sendable, Equatable {
    /// Low-passed raw rate (Q40 rad/s, bias included).
    public var gyroReference = FixedCascadedLowPass()
    /// Low-passed specific force (Q40 g).
    public var accelReference = FixedCascadedLowPass()
    /// Time close to the references (Q30 s, saturating at `fixedDurationLimit`).
    public var duration: Int64 = 0
    public var isAtRest = false
    /// The mean raw rate since the rest was declared (Q40 rad/s; see the reference).
    public var stillMean = WideVector3.zero
    /// Time since the last rest (Q30 s, saturating; the limit = never at rest yet).
    public var sinceRest: Int64 = fixedDurationLimit

    @inlinable public init() {}

    /// The decimated test (every `biasDecimation`-th sample): the
    /// means of the rate and force summed since the last test go into the references; the
    /// current sample (`gyro`, `specificForce`, Q40) is compared with them.
    /// `gyroMean`, `forceMean`: the means of the sums (`FixedFusionDecimation.mean`); `span`
    /// their time (Q30 s); `k`: `FixedFusionGains.restStageDecimated`. Scalars and means rather
    /// than the sums and the gains: no copies of those structs per run.
    @inlinable @_transparent
    mutating func update(
        gyro: WideVector3, specificForce: WideVector3, gyroMean: WideVector3, forceMean: WideVector3, span: Int64,
        stageGain k: Int64, warmUpGain: Int64, biasCenter: WideVector3, coefficients c: FixedFusionCoefficients
    ) {
        let gyroLp = gyroReference.update(gyroMean, gain: k, warmUpGain: warmUpGain)
        let accelLp = accelReference.update(forceMean, gain: k, warmUpGain: warmUpGain)
        // Stillness from the rate's variation, not its size (see the reference): near the known
        // offset the loose acceleration test, anywhere inside restBiasClip the strict one.
        let near = gyroLp - biasCenter
        // A clamped sample (±32 g) minus the low-pass of means of such samples (inside ±32 g,
        // see `squaredLengthQ48OfBounded`): within ±64, no clamp needed.
        let da2 = (specificForce - accelLp).squaredLengthQ48OfBounded
        let still = (gyro - gyroLp).squaredLengthQ48 < c.restGyroThresholdSquared
            && (da2 < c.restAccelThresholdSquared
                && near.x.magnitude < c.biasClip.magnitude && near.y.magnitude < c.biasClip.magnitude
                && near.z.magnitude < c.biasClip.magnitude
                || da2 < c.restStrictAccelThresholdSquared
                && gyroLp.x.magnitude < c.restBiasClip.magnitude && gyroLp.y.magnitude < c.restBiasClip.magnitude
                && gyroLp.z.magnitude < c.restBiasClip.magnitude)
        if still {
            duration = advanced(duration, by: span)
            if duration >= c.restMinDuration {
                // The mean over the rest itself, from the span that declared it (see the
                // reference): span / max(time at rest, span) as Q2.30 (span < 2^34: the quotient
                // ≤ 2^30, and the shift stays inside Int64).
                let atRestFor = isAtRest ? Swift.min(duration &- c.restMinDuration, c.restMeanWindow) : 0
                let window = Swift.max(atRestFor, span)
                let gain = ((span &<< 30) &+ window / 2) / window
                stillMean = stillMean + (gyroMean - stillMean).scaled(by: gain)
                isAtRest = true
            }
        } else {
            duration = 0
            isAtRest = false
        }
        sinceRest = isAtRest ? 0 : advanced(sinceRest, by: span)
    }
}

/// Durations saturate here (2^40 Q30 s = 1024 s, longer than every time constant and
/// threshold), so a filter running for months never overflows and behaves the same.
@usableFromInline let fixedDurationLimit: Int64 = 1 << 40

/// `duration + dt`, saturating at `fixedDurationLimit`.
@inlinable @inline(__always)
func advanced(_ duration: Int64, by dt: Int64) -> Int64 { Swift.min(duration &+ dt, fixedDurationLimit) }
