import IMUGeometry

/// Rest: rotation rate and acceleration have both stayed close to their own low-passed
/// reference for `restMinDuration`. Squared deviations are compared with squared thresholds
/// (no square root); the low-passed rate doubles as the rest bias measurement.
public struct RestDetector: Sendable, Equatable {
    /// Low-passed raw rotation rate (rad/s, bias included).
    public var gyroReference = CascadedLowPass()
    /// Low-passed acceleration (g, specific force).
    public var accelReference = CascadedLowPass()
    /// How long the samples have been close to the references (s).
    public var duration: Double = 0
    public var isAtRest = false

    public init() {}

    @inline(__always)
    mutating func update(
        gyro: Vector3, specificForce: Vector3, dt: Double,
        gains: FusionGains, warmUpGain: Double, parameters p: FusionParameters
    ) {
        let gyroLp = gyroReference.update(gyro, gain: gains.restStage, warmUpGain: warmUpGain)
        let accelLp = accelReference.update(specificForce, gain: gains.restStage, warmUpGain: warmUpGain)
        let dg = gyro - gyroLp
        let da = specificForce - accelLp
        // A large but steady rate is rotation, not a bias: the reference must stay inside the clip.
        let still = dg.dot(dg) < p.restGyroThreshold * p.restGyroThreshold
            && da.dot(da) < p.restAccelThreshold * p.restAccelThreshold
            && abs(gyroLp.x) < p.biasClip && abs(gyroLp.y) < p.biasClip && abs(gyroLp.z) < p.biasClip
        if still {
            duration += dt
            if duration >= p.restMinDuration { isAtRest = true }
        } else {
            duration = 0
            isAtRest = false
        }
    }
}
