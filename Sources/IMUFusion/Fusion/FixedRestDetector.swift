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

    /// Decimation (see the reference): samples since the last test, their rate and force
    /// summed (Q40; ≤ 8 clamped samples), the time they span (Q30 s).
    public var phase: Int32 = 0
    public var gyroSum = WideVector3.zero
    public var forceSum = WideVector3.zero
    public var elapsedSinceUpdate: Int64 = 0

    @inlinable public init() {}

    @inlinable @inline(__always)
    mutating func update(
        gyro: WideVector3, specificForce: WideVector3, dt: Int64, gains: FixedFusionGains, warmUpGain: Int64,
        coefficients c: FixedFusionCoefficients
    ) {
        phase &+= 1
        gyroSum = gyroSum + gyro
        forceSum = forceSum + specificForce
        elapsedSinceUpdate &+= dt
        guard warmUpGain > 0 || phase >= gains.biasDecimation else { return }
        let count = Int64(phase)
        @inline(__always) func mean(_ v: WideVector3) -> WideVector3 {
            @inline(__always) func m(_ x: Int64) -> Int64 {
                count == 8 ? roundingShiftRight(x, by: 3) : count == 1 ? x : (x &+ count / 2) / count
            }
            return WideVector3(x: m(v.x), y: m(v.y), z: m(v.z))
        }
        let k = warmUpGain > 0 ? gains.restStage : gains.restStageDecimated
        let gyroLp = gyroReference.update(mean(gyroSum), gain: k, warmUpGain: warmUpGain)
        let accelLp = accelReference.update(mean(forceSum), gain: k, warmUpGain: warmUpGain)
        let span = elapsedSinceUpdate
        phase = 0
        gyroSum = .zero
        forceSum = .zero
        elapsedSinceUpdate = 0
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
