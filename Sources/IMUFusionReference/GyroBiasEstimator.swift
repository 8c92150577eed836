import IMUGeometry

/// Gyroscope bias: at rest it follows the low-passed rate; in motion it is learnt from the
/// inclination corrections. A residual bias ε tilts the estimate at the rate R·ε (R: device →
/// earth), which the accelerometer correction undoes after the acceleration low-pass:
/// correction angle per sample φ ≈ −LP[R·ε]_horizontal·dt. With ε = b − b̂ and b constant,
/// LP[R]·b = −φ/dt + LP[R·b̂], so the innovation is −φ/dt + LP[R·b̂] − LP[R]·b̂ and the bias
/// takes a gradient step b̂ += (dt/τ)·LP[R]ᵀ·innovation (the φ term needs no division by dt).
/// Heading is not observable from gravity: the earth-vertical component gets no motion update
/// here; in 9D the heading corrections teach it (`learnAlongVertical`).
public struct GyroBiasEstimator: Sendable, Equatable {
    /// LP of the earth x and y axes in device axes (rows 0 and 1 of R), same filter as the acceleration.
    public var eastLowPass = CascadedLowPass()
    public var northLowPass = CascadedLowPass()
    /// LP of (R·b̂)_x, (R·b̂)_y (z unused).
    public var rotatedBiasLowPass = CascadedLowPass()
    /// Decimation: decimated runs since the last in-motion update (it runs on every second),
    /// the correction angles and the time accumulated over them.
    public var phase = 0
    public var correctionSum = (x: 0.0, y: 0.0)
    public var elapsedSinceUpdate = 0.0
    /// The bias estimate's variance ((rad/s)², one figure for every axis), used when
    /// `motionBiasRandomWalk` > 0: it grows by that rate with time, a rest pulls it down to the
    /// rest measurement's, an in-motion step takes its Kalman share. Starts at biasClip²: an
    /// offset known only to the loose rest test's range.
    public var variance = 0.0

    public init() {}

    public init(parameters p: FusionParameters) {
        variance = p.biasClip * p.biasClip
    }

    public static func == (a: GyroBiasEstimator, b: GyroBiasEstimator) -> Bool {
        a.eastLowPass == b.eastLowPass && a.northLowPass == b.northLowPass
            && a.rotatedBiasLowPass == b.rotatedBiasLowPass && a.phase == b.phase
            && a.correctionSum == b.correctionSum && a.elapsedSinceUpdate == b.elapsedSinceUpdate
            && a.variance == b.variance
    }

    /// The in-motion part runs on every second decimated sample (every 2·`gains.biasDecimation`-th:
    /// the bias and the low-passed axes move slowly, and half the runs halve its cost) on the
    /// correction angles summed since its last run and with the time they span; its low-passes
    /// use the gain for that span (`gains.motionBiasStage`), and while they are younger than
    /// τ_acc, span / elapsed (`elapsed`: the time since reset). The rest part runs on the
    /// decimated samples.
    /// `limit`: the range of every component (restBiasClip, or magneticBiasClip in 9D);
    /// `offsetMeasured`: `FusionState.biasMeasured`.
    @inline(__always)
    mutating func update(
        bias: inout Vector3, rest: RestDetector, correction: (x: Double, y: Double),
        attitude6D q: Quaternion, dt: Double, elapsed: Double, gains: FusionGains, warmUpGain: Double,
        limit: Double, decimated: Bool, offsetMeasured: Bool, parameters p: FusionParameters
    ) {
        if p.motionBiasEnabled {
            if decimated { phase += 1 }
            correctionSum = (correctionSum.x + correction.x, correctionSum.y + correction.y)
            elapsedSinceUpdate += dt
            if phase >= 2 {
                let span = elapsedSinceUpdate
                let phi = correctionSum
                let k = gains.motionBiasStage
                let warmUpGain = warmUpGain > 0 ? span / elapsed : 0
                phase = 0
                correctionSum = (0, 0)
                elapsedSinceUpdate = 0
                // Rows 0 and 1 of the device → earth rotation matrix.
                let (w, x, y, z) = (q.w, q.x, q.y, q.z)
                let ex = Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y))
                let ey = Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x))
                let exLp = eastLowPass.update(ex, gain: k, warmUpGain: warmUpGain)
                let eyLp = northLowPass.update(ey, gain: k, warmUpGain: warmUpGain)
                let rbLp = rotatedBiasLowPass.update(
                    Vector3(ex.dot(bias), ey.dot(bias), 0), gain: k, warmUpGain: warmUpGain)
                let tracksVariance = p.motionBiasRandomWalk > 0
                // Bounded by the datasheets' range (at motionBiasRandomWalkFromTemperature, two months without a rest).
                if tracksVariance {
                    variance = min(variance + p.motionBiasRandomWalk * span, p.restBiasClip * p.restBiasClip)
                }
                if !rest.isAtRest && warmUpGain == 0 {
                    // 1/τ; innovations beyond the clip are not a bias (see FusionState.biasMeasured).
                    var step = offsetMeasured ? gains.motionBias : gains.unmeasuredMotionBias
                    if tracksVariance && offsetMeasured {
                        // The innovation / span measures the horizontal bias error continuously,
                        // with noise density r = noise²·(1 s): the Kalman–Bucy gain P/r (1/s; no
                        // division: P ≪ r/span), at most the loop's 1/τ (the innovation lags by
                        // the gravity low-pass: a larger gain rings); the variance after a step
                        // of that gain, dP/dt = −2kP + k²r (any gain; k = P/r gives −P²/r).
                        let density = p.motionBiasMeasurementNoise * p.motionBiasMeasurementNoise
                        let rate = rest.gyroReference.stage2 - bias
                        let rateError = p.motionBiasSensitivityError * p.motionBiasSensitivityError * rate.dot(rate)
                        step = min((variance + rateError) / density, step)
                        variance += span * step * (step * density - 2 * variance)
                    }
                    let clip = (offsetMeasured ? p.biasClip : p.restBiasClip) * span
                    let ix = min(max(-phi.x + span * (rbLp.x - exLp.dot(bias)), -clip), clip)
                    let iy = min(max(-phi.y + span * (rbLp.y - eyLp.dot(bias)), -clip), clip)
                    bias = bias + (step * ix) * exLp + (step * iy) * eyLp
                }
            }
        }
        // The rest part on the decimated samples (where the rest test and its mean change): the
        // N per-sample steps towards the mean as one step of their combined gain.
        if decimated && rest.isAtRest && p.restBiasEnabled {
            let k = gains.restBiasDecimated
            bias += k * (rest.stillMean - bias)
            // The old error shrinks by (1 − k); the rest mean's own error, the same on every
            // step of one rest, takes its place.
            let measured = p.restBiasMeasurementNoise * p.restBiasMeasurementNoise
            variance = measured + (1 - k) * (1 - k) * (variance - measured)
        }
        bias = Self.clipped(bias, limit)
    }

    /// After the bias jumped (an offset measured at rest): the memory of R·b̂ takes the new
    /// bias, so the next innovations carry no step from the old one: each stage is LP[R]'s
    /// stage times b (for a constant b, LP[R·b] = LP[R]·b stage by stage).
    mutating func rememberBias(_ bias: Vector3) {
        rotatedBiasLowPass.stage1 = Vector3(eastLowPass.stage1.dot(bias), northLowPass.stage1.dot(bias), 0)
        rotatedBiasLowPass.stage2 = Vector3(eastLowPass.stage2.dot(bias), northLowPass.stage2.dot(bias), 0)
    }

    /// 9D: a heading error e (rad, `HeadingCorrection.lastError`) says the 6D frame turned about
    /// the vertical by −e more than the device did, at the residual bias along the vertical
    /// (up · ε, up = row 2 of R(q6): the vertical in device axes). The bias takes the step
    /// −gain·e along up (gain from `HeadingCorrection.update`, 1/s), then the 9D range.
    @inline(__always)
    static func learnAlongVertical(
        bias: inout Vector3, headingError e: Double, gain: Double, attitude6D q: Quaternion, limit: Double
    ) {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        let up = Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
        bias = clipped(bias + (-gain * e) * up, limit)
    }

    @inline(__always)
    static func clipped(_ b: Vector3, _ limit: Double) -> Vector3 {
        Vector3(min(max(b.x, -limit), limit), min(max(b.y, -limit), limit), min(max(b.z, -limit), limit))
    }
}
