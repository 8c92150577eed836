/// Gyroscope bias (the reference's `GyroBiasEstimator`; the derivation is there): at rest the
/// bias follows the low-passed rate; in motion it takes a gradient step on the inclination
/// corrections, b += (1/τ)·LP[R]ᵀ·innovation, with the rows of R low-passed like the
/// acceleration. The bias is Q40 rad/s: an in-motion step is ~10⁻¹¹ rad/s per sample.
public struct FixedGyroBiasEstimator: Sendable, Equatable {
    /// LP of rows 0 and 1 of R(q6) (Q40, entries in [−1, 1]).
    public var eastLowPass = FixedCascadedLowPass()
    public var northLowPass = FixedCascadedLowPass()
    /// LP of (R·b)_x, (R·b)_y (Q40 rad/s; z unused, stays 0).
    public var rotatedBiasLowPass = FixedCascadedLowPass()
    /// Decimation: samples since the last in-motion update; the corrections φ (Q2.30 rad),
    /// biasClip·dt (Q40 rad) and dt (Q30 s) summed over them.
    public var phase: Int32 = 0
    public var correctionSumX: Int64 = 0
    public var correctionSumY: Int64 = 0
    public var clipSum: Int64 = 0
    public var elapsedSinceUpdate: Int64 = 0

    @inlinable public init() {}

    /// True when this sample's `update` runs the in-motion part (and needs R(q6)).
    @inlinable @inline(__always)
    func runsMotionPart(gains: FixedFusionGains, warmUpGain: Int64, coefficients c: FixedFusionCoefficients) -> Bool {
        c.parameters.motionBiasEnabled && (warmUpGain > 0 || phase &+ 1 >= gains.biasDecimation)
    }

    /// `rows`: R(q6), device → E6 (non-nil whenever `runsMotionPart`).
    /// `correction`: φ (Q2.30 rad). `bias`: Q40 rad/s. The in-motion part runs every
    /// `gains.biasDecimation`-th sample (every sample during the warm-up) on the summed φ
    /// and the time it spans (≤ 8 · 1.02 · 0.0625 s: dt·x stays a `wideProduct` with a Q2.30 factor).
    /// `limit`: the range of every component (Q40; biasClip, or the 9D range).
    @inlinable @inline(__always)
    mutating func update(
        bias: inout WideVector3, rest: FixedRestDetector, correction: (x: Int64, y: Int64),
        rows rowsOfQ6: FixedMatrix3?,
        dt: Int64, gains: FixedFusionGains, warmUpGain: Int64, limit: Int64, coefficients c: FixedFusionCoefficients
    ) {
        let p = c.parameters
        if p.motionBiasEnabled {
            phase &+= 1
            correctionSumX &+= correction.x
            correctionSumY &+= correction.y
            clipSum &+= gains.biasClipTimesDt
            elapsedSinceUpdate &+= dt
            if warmUpGain > 0 || phase >= gains.biasDecimation {
                let span = elapsedSinceUpdate, clip = clipSum
                let phi = (x: correctionSumX, y: correctionSumY)
                let k = warmUpGain > 0 ? gains.accelStage : gains.biasStage
                phase = 0
                correctionSumX = 0
                correctionSumY = 0
                clipSum = 0
                elapsedSinceUpdate = 0
                let r = rowsOfQ6!
                let ex = (Int64(r.row0.x.raw), Int64(r.row0.y.raw), Int64(r.row0.z.raw))
                let ey = (Int64(r.row1.x.raw), Int64(r.row1.y.raw), Int64(r.row1.z.raw))
                let exLp = eastLowPass.update(WideVector3(r.row0), gain: k, warmUpGain: warmUpGain)
                let eyLp = northLowPass.update(WideVector3(r.row1), gain: k, warmUpGain: warmUpGain)
                @inline(__always) func dot(_ e: (Int64, Int64, Int64), _ b: WideVector3) -> Int64 {
                    wideProduct(e.0, b.x) &+ wideProduct(e.1, b.y) &+ wideProduct(e.2, b.z)
                }
                let rbLp = rotatedBiasLowPass.update(
                    WideVector3(x: dot(ex, bias), y: dot(ey, bias), z: 0), gain: k, warmUpGain: warmUpGain)
                if !rest.isAtRest && warmUpGain == 0 {
                    let exFactors = exLp.q30Factors, eyFactors = eyLp.q30Factors
                    let exLpFactors = (exFactors.x, exFactors.y, exFactors.z)
                    let eyLpFactors = (eyFactors.x, eyFactors.y, eyFactors.z)
                    // Innovations (Q40 rad): −Σφ + span·(LP[R·b] − LP[R]·b), clipped at Σ biasClip·dt.
                    let ix = clamped(-(phi.x &<< 10) &+ wideProduct(span, rbLp.x &- dot(exLpFactors, bias)), clip)
                    let iy = clamped(-(phi.y &<< 10) &+ wideProduct(span, rbLp.y &- dot(eyLpFactors, bias)), clip)
                    // Step (1/τ)·i along LP[R]'s rows (Q40 rad/s).
                    let sx = wideProduct(c.motionBiasStep, ix)
                    let sy = wideProduct(c.motionBiasStep, iy)
                    bias = WideVector3(
                        x: bias.x &+ wideProduct(exLpFactors.0, sx) &+ wideProduct(eyLpFactors.0, sy),
                        y: bias.y &+ wideProduct(exLpFactors.1, sx) &+ wideProduct(eyLpFactors.1, sy),
                        z: bias.z &+ wideProduct(exLpFactors.2, sx) &+ wideProduct(eyLpFactors.2, sy))
                }
            }
        }
        if rest.isAtRest && p.restBiasEnabled {
            bias = bias + (rest.gyroReference.stage2 - bias).scaled(by: gains.restBias)
        }
        bias = WideVector3(x: clamped(bias.x, limit), y: clamped(bias.y, limit), z: clamped(bias.z, limit))
    }

    /// 9D: the step −gain·e along the vertical in device axes (`up`: row 2 of R(q6), Q2.30) for
    /// a heading error e (Q3.29 rad) and the gain from `FixedHeadingCorrection.update` (Q40,
    /// 1/s, ≤ ~2^47), then the 9D range (see the reference's `learnAlongVertical`).
    @inlinable @inline(__always)
    static func learnAlongVertical(
        bias: inout WideVector3, headingError e: Q29, gain: Int64, up: FixedVector3<Q30>, limit: Int64
    ) {
        // e (Q29, |raw| < 2^31) · gain (Q40) / 2^30 = Q39 → Q40.
        let step = -(wideProduct(Int64(e.raw), gain) &<< 1)
        bias = WideVector3(
            x: clamped(bias.x &+ wideProduct(Int64(up.x.raw), step), limit),
            y: clamped(bias.y &+ wideProduct(Int64(up.y.raw), step), limit),
            z: clamped(bias.z &+ wideProduct(Int64(up.z.raw), step), limit))
    }
}
