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
    /// The in-motion part runs on every second decimated run (see the reference): the first
    /// run of a pair leaves its correction (Q2.30 rad) and span (Q30 s, > 0) here; span 0 =
    /// none pending.
    public var pendingCorrectionX: Int64 = 0
    public var pendingCorrectionY: Int64 = 0
    public var pendingSpan: Int64 = 0

    @inlinable public init() {}

    /// The in-motion part, on every second decimated run (see the reference), when
    /// enabled: `rows` = R(q6), device → E6; `correction`: the two runs' φ summed (Q2.30 rad
    /// each; the skipped samples' φ is zero); `span`: the time since the last run (≤ 2 · 1.5 s
    /// even when the decimation changes mid-span: span·x stays a `wideProduct` with a factor
    /// below 2^32); `stageGain`: `FixedFusionGains.motionBiasStage`. `bias`: Q40 rad/s, clamped after a step.
    /// `offsetMeasured`: `FixedFusionState.biasMeasured` (the step and the clip it selects).
    @inlinable @_transparent
    mutating func update(
        bias: inout WideVector3, isAtRest: Bool, correction phi: (x: Int64, y: Int64), rows r: FixedMatrix3,
        span: Int64, stageGain k: Int64, warmUpGain: Int64, limit: Int64,
        offsetMeasured: Bool, coefficients c: FixedFusionCoefficients
    ) {
        // The innovation's clip, biasClip · span as the reference (Q40 rad; span < 1.5 s even when the
        // decimation changes mid-span, a Q2.30 factor).
        let clip = wideProduct(span, offsetMeasured ? c.biasClip : c.restBiasClip)
        let ex = (Int64(r.row0.x.raw), Int64(r.row0.y.raw), Int64(r.row0.z.raw))
        let ey = (Int64(r.row1.x.raw), Int64(r.row1.y.raw), Int64(r.row1.z.raw))
        let exLp = eastLowPass.update(WideVector3(r.row0), gain: k, warmUpGain: warmUpGain)
        let eyLp = northLowPass.update(WideVector3(r.row1), gain: k, warmUpGain: warmUpGain)
        @inline(__always) func dot(_ e: (Int64, Int64, Int64), _ b: WideVector3) -> Int64 {
            wideProduct(e.0, b.x) &+ wideProduct(e.1, b.y) &+ wideProduct(e.2, b.z)
        }
        // (R·b)_z is never used: its low-pass stays at 0 (`updateHorizontal`).
        let rbLp = rotatedBiasLowPass.updateHorizontal(
            x: dot(ex, bias), y: dot(ey, bias), gain: k, warmUpGain: warmUpGain)
        if !isAtRest && warmUpGain == 0 {
            let exFactors = exLp.q30Factors, eyFactors = eyLp.q30Factors
            let exLpFactors = (exFactors.x, exFactors.y, exFactors.z)
            let eyLpFactors = (eyFactors.x, eyFactors.y, eyFactors.z)
            // Innovations (Q40 rad): −Σφ + span·(LP[R·b] − LP[R]·b), clipped at biasClip·span.
            // |φ| < 2^32 (two Q2.30 angles), so φ·2^10 and its negation fit Int64 without a check.
            let ix = clamped((0 &- (phi.x &<< 10)) &+ wideProduct(span, rbLp.x &- dot(exLpFactors, bias)), clip)
            let iy = clamped((0 &- (phi.y &<< 10)) &+ wideProduct(span, rbLp.y &- dot(eyLpFactors, bias)), clip)
            // Step (1/τ)·i along LP[R]'s rows (Q40 rad/s).
            let step = offsetMeasured ? c.motionBiasStep : c.unmeasuredMotionBiasStep
            let sx = wideProduct(step, ix)
            let sy = wideProduct(step, iy)
            bias = WideVector3(
                x: bias.x &+ wideProduct(exLpFactors.0, sx) &+ wideProduct(eyLpFactors.0, sy),
                y: bias.y &+ wideProduct(exLpFactors.1, sx) &+ wideProduct(eyLpFactors.1, sy),
                z: bias.z &+ wideProduct(exLpFactors.2, sx) &+ wideProduct(eyLpFactors.2, sy))
            bias = bias.componentsClamped(limit)
        }
    }

    /// After the bias jumped (an offset measured at rest): the memory of R·b takes the new bias
    /// (see the reference's `rememberBias`).
    @inlinable @inline(__always)
    mutating func rememberBias(_ bias: WideVector3) {
        @inline(__always) func rotated(_ east: WideVector3, _ north: WideVector3) -> WideVector3 {
            let ex = east.q30Factors, ey = north.q30Factors
            return WideVector3(
                x: wideProduct(ex.x, bias.x) &+ wideProduct(ex.y, bias.y) &+ wideProduct(ex.z, bias.z),
                y: wideProduct(ey.x, bias.x) &+ wideProduct(ey.y, bias.y) &+ wideProduct(ey.z, bias.z), z: 0)
        }
        rotatedBiasLowPass.stage1 = rotated(eastLowPass.stage1, northLowPass.stage1)
        rotatedBiasLowPass.stage2 = rotated(eastLowPass.stage2, northLowPass.stage2)
    }

    /// At rest the bias follows the low-passed rate (`reference`, Q40 rad/s), every sample.
    @inlinable @inline(__always)
    static func restStep(bias: inout WideVector3, reference: WideVector3, gain: Int64, clip: Int64) {
        bias = (bias + (reference - bias).scaled(by: gain)).componentsClamped(clip)
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
            x: bias.x &+ wideProduct(Int64(up.x.raw), step),
            y: bias.y &+ wideProduct(Int64(up.y.raw), step),
            z: bias.z &+ wideProduct(Int64(up.z.raw), step)).componentsClamped(limit)
    }
}
