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
    /// Time since the device was last at rest (s; infinite before the first rest): how old the
    /// rest measurement of the bias is.
    public var sinceRest = Double.infinity

    /// Decimation: samples since the last test, their rate and force summed, the time they span.
    public var phase = 0
    public var gyroSum = Vector3(0, 0, 0)
    public var forceSum = Vector3(0, 0, 0)
    public var elapsedSinceUpdate = 0.0

    public init() {}

    /// Every `gains.biasDecimation`-th sample: the means of the
    /// samples since the last run go through the low-passes (gain for that span), and this
    /// sample is tested against them; the rest time grows by the span.
    @inline(__always)
    mutating func update(
        gyro: Vector3, specificForce: Vector3, dt: Double,
        gains: FusionGains, warmUpGain: Double, parameters p: FusionParameters
    ) {
        phase += 1
        gyroSum += gyro
        forceSum += specificForce
        elapsedSinceUpdate += dt
        guard phase >= gains.biasDecimation else { return }
        let scale = 1 / Double(phase)
        let k = gains.restStageDecimated
        let gyroLp = gyroReference.update(scale * gyroSum, gain: k, warmUpGain: warmUpGain)
        let accelLp = accelReference.update(scale * forceSum, gain: k, warmUpGain: warmUpGain)
        let span = elapsedSinceUpdate
        phase = 0
        gyroSum = Vector3(0, 0, 0)
        forceSum = Vector3(0, 0, 0)
        elapsedSinceUpdate = 0
        let dg = gyro - gyroLp
        let da = specificForce - accelLp
        // A large but steady rate is rotation, not a bias: the reference must stay inside the clip.
        let still = dg.dot(dg) < p.restGyroThreshold * p.restGyroThreshold
            && da.dot(da) < p.restAccelThreshold * p.restAccelThreshold
            && abs(gyroLp.x) < p.biasClip && abs(gyroLp.y) < p.biasClip && abs(gyroLp.z) < p.biasClip
        if still {
            duration += span
            if duration >= p.restMinDuration { isAtRest = true }
        } else {
            duration = 0
            isAtRest = false
        }
        sinceRest = isAtRest ? 0 : sinceRest + span
    }
}
