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
    /// The mean raw rate since the rest was declared (rad/s, over at most `restMeanWindow`): the
    /// offset measured at rest, without the low-pass's memory of the motion before.
    public var stillMean = Vector3(0, 0, 0)
    /// Time since the device was last at rest (s; infinite before the first rest): how old the
    /// rest measurement of the bias is.
    public var sinceRest = Double.infinity

    /// Decimation: samples since the last test, their rate and force summed, the time they span.
    public var phase = 0
    public var gyroSum = Vector3(0, 0, 0)
    public var forceSum = Vector3(0, 0, 0)
    public var elapsedSinceUpdate = 0.0
    /// The last decimated run's mean rate (rad/s, bias included) and the time it spanned (s):
    /// the turn about the vertical (`DeviceFixedFieldTest`) comes from them.
    public var lastGyroMean = Vector3(0, 0, 0)
    public var lastSpan = 0.0

    public init() {}

    /// Every `gains.biasDecimation`-th sample: the means of the
    /// samples since the last run go through the low-passes (gain for that span), and this
    /// sample is tested against them; the rest time grows by the span.
    @inline(__always)
    mutating func update(
        gyro: Vector3, specificForce: Vector3, dt: Double,
        gains: FusionGains, warmUpGain: Double, biasCenter: Vector3, parameters p: FusionParameters
    ) {
        phase += 1
        gyroSum += gyro
        forceSum += specificForce
        elapsedSinceUpdate += dt
        guard phase >= gains.biasDecimation else { return }
        let scale = 1 / Double(phase)
        let gyroMean = scale * gyroSum
        let forceMean = scale * forceSum
        let k = gains.restStageDecimated
        let gyroLp = gyroReference.update(gyroMean, gain: k, warmUpGain: warmUpGain)
        let accelLp = accelReference.update(forceMean, gain: k, warmUpGain: warmUpGain)
        let span = elapsedSinceUpdate
        lastGyroMean = gyroMean
        lastSpan = span
        phase = 0
        gyroSum = Vector3(0, 0, 0)
        forceSum = Vector3(0, 0, 0)
        elapsedSinceUpdate = 0
        let dg = gyro - gyroLp
        let da = specificForce - accelLp
        // Stillness from the rate's variation, not its size (an uncalibrated gyro reads its
        // offset at rest). A steady rate near the known offset (within biasClip) passes the
        // loose acceleration test; one anywhere inside restBiasClip only the strict one, which a
        // rotation about a horizontal axis fails.
        let near = gyroLp - biasCenter
        let da2 = da.dot(da)
        let still = dg.dot(dg) < p.restGyroThreshold * p.restGyroThreshold
            && (da2 < p.restAccelThreshold * p.restAccelThreshold
                && abs(near.x) < p.biasClip && abs(near.y) < p.biasClip && abs(near.z) < p.biasClip
                || da2 < p.restStrictAccelThreshold * p.restStrictAccelThreshold
                && abs(gyroLp.x) < p.restBiasClip && abs(gyroLp.y) < p.restBiasClip && abs(gyroLp.z) < p.restBiasClip)
        // After a fast turn the references still hold the turn (two stages of τ_rest/2: seconds
        // after several hundred °/s); a rate (or force) this far from its reference is no rest,
        // so the reference starts again from this span's mean and the next still spans are
        // compared with that.
        if p.restReferenceRestartRate > 0 && dg.dot(dg) > p.restReferenceRestartRate * p.restReferenceRestartRate {
            gyroReference.restart(at: gyroMean)
        }
        if p.restReferenceRestartForce > 0 && da2 > p.restReferenceRestartForce * p.restReferenceRestartForce {
            accelReference.restart(at: forceMean)
        }
        if still {
            duration += span
            if duration >= p.restMinDuration {
                // The offset is the mean over the rest itself, from the span that declared it: the
                // spans that qualified it pass a test against a reference that lags by τ_rest, so
                // they may hold a motion's slow end (a hand settling: 0.2° over the last 0.4 s is
                // 0.07°/s in a 3 s mean), which the heading then turns at until the next rest.
                let atRestFor = isAtRest ? min(duration - p.restMinDuration, p.restMeanWindow) : 0
                stillMean += (span / max(atRestFor, span)) * (gyroMean - stillMean)
                isAtRest = true
            }
        } else {
            duration = 0
            isAtRest = false
        }
        sinceRest = isAtRest ? 0 : sinceRest + span
    }
}
