/// Magnetic disturbance (the reference's `MagneticDisturbanceDetector`): the field's norm (Q40
/// µT) and sine of the dip (Q40) are low-passed and compared with a reference learnt from
/// undisturbed data; a steady new field seen while turning becomes the new reference.
public struct FixedMagneticDisturbanceDetector: Sendable, Equatable {
    public var currentNorm: Int64 = 0
    public var currentSinDip: Int64 = 0
    /// Reference; norm 0 = none learnt yet.
    public var referenceNorm: Int64 = 0
    public var referenceSinDip: Int64 = 0
    /// Candidate; norm < 0 = none.
    public var candidateNorm: Int64 = -(1 << 40)
    public var candidateSinDip: Int64 = 0
    /// Q30 seconds.
    public var candidateDuration: Int64 = 0
    public var undisturbedDuration: Int64 = 0
    public var isDisturbed = true

    @inlinable public init() {}

    /// `norm`: Q40 µT; `sinDip`, `cosDip`: Q2.30 (as Int64); gains Q2.30; `dt` Q30 s.
    @inlinable @inline(__always)
    mutating func update(
        norm: Int64, sinDip: Int64, cosDip: Int64, dt: Int64, currentGain: Int64, referenceGain: Int64,
        turning: Bool, coefficients c: FixedFusionCoefficients
    ) {
        let threshold = Int64(c.parameters.magneticNormThreshold.raw)
        currentNorm &+= wideProduct(currentGain, norm &- currentNorm)
        currentSinDip &+= wideProduct(currentGain, (sinDip &<< 10) &- currentSinDip)
        // Δ sin dip ≈ cos dip · Δ dip: the tolerance in Q40.
        let dipTolerance = (c.dipSineThreshold &* cosDip) &>> 20

        if (currentNorm &- referenceNorm).magnitude < UInt64(clamping: wideProduct(threshold, referenceNorm))
            && (currentSinDip &- referenceSinDip).magnitude < UInt64(clamping: dipTolerance)
        {
            undisturbedDuration = advanced(undisturbedDuration, by: dt)
            if undisturbedDuration >= c.magneticMinUndisturbedDuration {
                isDisturbed = false
                referenceNorm &+= wideProduct(referenceGain, currentNorm &- referenceNorm)
                referenceSinDip &+= wideProduct(referenceGain, currentSinDip &- referenceSinDip)
            }
        } else {
            undisturbedDuration = 0
            isDisturbed = true
        }

        if (currentNorm &- candidateNorm).magnitude < UInt64(clamping: wideProduct(threshold, candidateNorm))
            && (currentSinDip &- candidateSinDip).magnitude < UInt64(clamping: dipTolerance)
        {
            if turning { candidateDuration = advanced(candidateDuration, by: dt) }
            candidateNorm &+= wideProduct(referenceGain, currentNorm &- candidateNorm)
            candidateSinDip &+= wideProduct(referenceGain, currentSinDip &- candidateSinDip)
            let needed = referenceNorm == 0 ? c.magneticFirstFieldDuration : c.magneticNewFieldDuration
            if isDisturbed && candidateDuration >= needed {
                referenceNorm = candidateNorm
                referenceSinDip = candidateSinDip
                isDisturbed = false
                undisturbedDuration = c.magneticMinUndisturbedDuration
            }
        } else {
            candidateDuration = 0
            candidateNorm = currentNorm
            candidateSinDip = currentSinDip
        }
    }
}
