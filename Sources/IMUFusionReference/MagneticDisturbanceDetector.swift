/// Magnetic disturbance: the field's norm and dip (as the sine of the dip, no asin) are
/// compared with a reference learned from undisturbed data. A field that differs is
/// disturbed and the heading correction is rejected. A steady new field, seen while the
/// device turns, becomes the new reference after `magneticNewFieldDuration` (the first one
/// after `magneticFirstFieldDuration`).
public struct MagneticDisturbanceDetector: Sendable, Equatable {
    /// Low-passed current norm (µT) and sine of the dip (positive: field points down).
    public var currentNorm: Double = 0
    public var currentSinDip: Double = 0
    /// Reference; norm 0 = none learnt yet.
    public var referenceNorm: Double = 0
    public var referenceSinDip: Double = 0
    /// Candidate for a new reference; norm < 0 = none.
    public var candidateNorm: Double = -1
    public var candidateSinDip: Double = 0
    public var candidateDuration: Double = 0
    public var undisturbedDuration: Double = 0
    public var isDisturbed = true

    public init() {}

    /// `norm` and `sinDip` of the current sample; `cosDip` (horizontal fraction) scales the
    /// dip threshold, since Δ(sin dip) ≈ cos(dip)·Δdip. `turning`: the device rotates fast enough
    /// for a candidate to gain time.
    @inline(__always)
    mutating func update(
        norm: Double, sinDip: Double, cosDip: Double, dt: Double, currentGain: Double,
        referenceGain: Double, dipSineThreshold: Double, turning: Bool, parameters p: FusionParameters
    ) {
        currentNorm += currentGain * (norm - currentNorm)
        currentSinDip += currentGain * (sinDip - currentSinDip)
        let dipTolerance = dipSineThreshold * cosDip

        if abs(currentNorm - referenceNorm) < p.magneticNormThreshold * referenceNorm
            && abs(currentSinDip - referenceSinDip) < dipTolerance
        {
            undisturbedDuration += dt
            if undisturbedDuration >= p.magneticMinUndisturbedDuration {
                isDisturbed = false
                referenceNorm += referenceGain * (currentNorm - referenceNorm)
                referenceSinDip += referenceGain * (currentSinDip - referenceSinDip)
            }
        } else {
            undisturbedDuration = 0
            isDisturbed = true
        }

        if abs(currentNorm - candidateNorm) < p.magneticNormThreshold * candidateNorm
            && abs(currentSinDip - candidateSinDip) < dipTolerance
        {
            if turning { candidateDuration += dt }
            candidateNorm += referenceGain * (currentNorm - candidateNorm)
            candidateSinDip += referenceGain * (currentSinDip - candidateSinDip)
            let needed = referenceNorm == 0 ? p.magneticFirstFieldDuration : p.magneticNewFieldDuration
            if isDisturbed && candidateDuration >= needed {
                referenceNorm = candidateNorm
                referenceSinDip = candidateSinDip
                isDisturbed = false
                undisturbedDuration = p.magneticMinUndisturbedDuration
            }
        } else {
            candidateDuration = 0
            candidateNorm = currentNorm
            candidateSinDip = currentSinDip
        }
    }
}
