import IMUGeometry

// Offsets from outside the filter (issue 19, goal 2): what earlier runs learned at rest, per
// temperature (IMUCalibration's `LearnedGyroOffsets`), and the temperature model's drift.
extension FusionState {
    /// Takes `offset` (rad/s, device axes, clipped to ±restBiasClip) as the gyro's zero-rate
    /// offset, the way a re-levelling rest takes a measured one: the bias and the loose rest
    /// test's centre move to it, and the in-motion estimator's memory of R·b takes it (so its
    /// next innovations carry no step). The attitude is left alone: nothing was measured about it.
    public mutating func adoptGyroOffset(_ offset: Vector3, parameters p: FusionParameters) {
        let b = GyroBiasEstimator.clipped(offset, p.restBiasClip)
        bias = b
        biasCenter = b
        biasMeasured = true
        biasEstimator.rememberBias(b)
        // Known to the loose rest test's range (as at the start), not to a rest's precision.
        biasEstimator.variance = p.biasClip * p.biasClip
    }

    /// Moves the bias and the rest test's centre by `change` (rad/s): a drift the temperature
    /// model predicts, fed forward.
    public mutating func shiftGyroOffset(by change: Vector3, parameters p: FusionParameters) {
        let centre = GyroBiasEstimator.clipped(biasCenter + change, p.restBiasClip)
        adoptGyroOffset(bias + change, parameters: p)
        biasCenter = centre
    }
}
