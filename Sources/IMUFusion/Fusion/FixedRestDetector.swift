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
    /// Time since the last rest (Q30 s, saturating; the limit = never at rest yet).
    public var sinceRest: Int64 = fixedDurationLimit

    @inlinable public init() {}

    /// The decimated test (every `biasDecimation`-th sample): the
    /// means of the rate and force summed since the last test go into the references; the
    /// current sample (`gyro`, `specificForce`, Q40) is compared with them.
    @inlinable @inline(__always)
    mutating func update(
        gyro: WideVector3, specificForce: WideVector3, sums: FixedFusionDecimation, gains: FixedFusionGains,
        warmUpGain: Int64, coefficients c: FixedFusionCoefficients
    ) {
        let k = gains.restStageDecimated
        let gyroLp = gyroReference.update(sums.mean(sums.gyroSum), gain: k, warmUpGain: warmUpGain)
        let accelLp = accelReference.update(sums.mean(sums.forceSum), gain: k, warmUpGain: warmUpGain)
        let span = sums.span
        // A large but steady rate is rotation, not a bias: the reference must stay inside the clip.
        let still = (gyro - gyroLp).squaredLengthQ48 < c.restGyroThresholdSquared
            && (specificForce - accelLp).squaredLengthQ48 < c.restAccelThresholdSquared
            && gyroLp.x.magnitude < c.biasClip.magnitude && gyroLp.y.magnitude < c.biasClip.magnitude
            && gyroLp.z.magnitude < c.biasClip.magnitude
        if still {
            duration = advanced(duration, by: span)
            if duration >= c.restMinDuration { isAtRest = true }
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
