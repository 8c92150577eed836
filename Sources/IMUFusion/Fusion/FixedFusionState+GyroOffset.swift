// Offsets from outside the filter (issue 19, goal 2), as the reference's
// `FusionState.adoptGyroOffset` / `shiftGyroOffset`: called between updates, never inside one,
// so the per-sample path is unchanged.
extension FixedFusionState {
    /// Takes `offset` (Q40 rad/s, device axes, clamped to ±restBiasClip) as the gyro's
    /// zero-rate offset, the way a re-levelling rest takes a measured one.
    public mutating func adoptGyroOffset(_ offset: WideVector3, coefficients c: FixedFusionCoefficients) {
        let b = offset.componentsClamped(c.restBiasClip)
        bias = b
        biasCenter = b
        biasMeasured = true
        biasEstimator.rememberBias(b)
    }

    /// Moves the bias and the rest test's centre by `change` (Q40 rad/s).
    public mutating func shiftGyroOffset(by change: WideVector3, coefficients c: FixedFusionCoefficients) {
        let centre = (biasCenter + change).componentsClamped(c.restBiasClip)
        adoptGyroOffset(bias + change, coefficients: c)
        biasCenter = centre
    }
}
