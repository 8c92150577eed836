/// Accelerometer correction (the reference's `InclinationCorrection`). The specific force is
/// rotated into the almost-inertial frame and low-passed there (Q40 g); the inclination
/// quaternion then turns that vector a onto the vertical: during the warm-up exactly, with
/// the half-way quaternion normalised; afterwards with (1, φ/2) and a Newton renormalisation.
/// One 1/|a| per run (a short series near 1 g, else the rsqrt kernel), no division.
public enum FixedInclinationCorrection {
    /// Returns the correction φ as a small rotation vector (x, y) in the earth frame, Q2.30 rad
    /// (as Int64), which drives the in-motion bias estimate; (0, 0) when the filtered force is ~0.
    /// Runs every `biasDecimation`-th sample (see the reference)
    /// on the mean of the inertial force summed since its last run.
    /// `inertial`: the mean of `FixedFusionDecimation.inertialForceSum`; `stageGain`:
    /// `FixedFusionGains.biasStage`. `restart`: the low-pass starts again from `inertial` and the
    /// inclination turns onto it exactly; φ = (0, 0) then (see the reference).
    @inlinable @_transparent
    static func update(
        inclination: inout FixedQuaternion, lowPass: inout FixedCascadedLowPass, inertial: WideVector3,
        stageGain: Int64, warmUpGain: Int64, restart: Bool = false
    ) -> (x: Int64, y: Int64) {
        let filtered = restart
            ? lowPass.restart(at: inertial) : lowPass.update(inertial, gain: stageGain, warmUpGain: warmUpGain)
        // a = R(q_a)·filtered: the filtered force as Q27 (|·| ≤ 32 g → 2^32) times Q30 entries,
        // three halved products (≤ 1.5 · 2^62), back to Q27.
        let f = (roundingShiftRight(filtered.x, by: 13), roundingShiftRight(filtered.y, by: 13),
                 roundingShiftRight(filtered.z, by: 13))
        let r = inclination.unitRotationMatrix  // kept unit by the (re)normalisations below
        @inline(__always) func row(_ e: FixedVector3<Q30>) -> Int64 {
            let sum = (Int64(e.x.raw) &* f.0) &>> 1 &+ (Int64(e.y.raw) &* f.1) &>> 1 &+ (Int64(e.z.raw) &* f.2) &>> 1
            return roundingShiftRight(sum, by: 32)  // Q57 halved is Q56; to Q24 (6 × 10⁻⁸ g)
        }
        let (ax, ay, az) = (row(r.row0), row(r.row1), row(r.row2))
        // |a|² in Q48 (≤ 3 · 2^58 for |a| ≤ 55 g); nearly zero → no direction, no correction.
        let squaredNorm = ax &* ax &+ ay &* ay &+ az &* az
        guard squaredNorm >= 1 << 8 else { return (0, 0) }
        // 1/|a| as mantissa (Q31, which keeps a·m below 2^62) and the shift that takes a (Q24)
        // · m (Q31) to Q30. The filtered force is nearly always within 3 % of 1 g: |ε| =
        // | |a|² − 1 | ≤ 2⁻⁴, where 1/|a| = 1 − ε/2 + 3ε²/8 leaves ≤ 5|ε|³/16 ≤ 8 × 10⁻⁵ of
        // the correction's length (its direction is exact): two multiplies instead of the
        // rsqrt kernel. Further from 1 g, the kernel: m · 2^e / 2^32, shift 25 − e (≥ 5: |a| ≥
        // 2^-20 g here).
        let epsilon = squaredNorm &- (1 << 48)  // Q48
        let mantissa: Int64, shift: Int
        if epsilon.magnitude <= 1 << 44 {
            let e = roundingShiftRight(epsilon, by: 17)  // Q31, |e| ≤ 2^27, 3e² < 2^56
            mantissa = (Int64(1) << 31) &- roundingShiftRight(e, by: 1) &+ roundingShiftRight(3 &* e &* e, by: 34)
            shift = 25
        } else {
            let parts = FixedMath.reciprocalSquareRootParts(ofSignificand: UInt64(squaredNorm), fractionBits: 48)
            mantissa = roundingShiftRight(parts.mantissa, by: 1)
            shift = Swift.min(25 &- parts.exponent, 62)
        }
        @inline(__always) func unit(_ v: Int64) -> Int64 { roundingShiftRight(v &* mantissa, by: shift) }
        let (ux, uy, uz) = (unit(ax), unit(ay), unit(az))
        // The correction as a rotation vector in E6 (rad, Q2.30): turns a onto +z.
        let phi = (x: uy, y: -ux)
        if warmUpGain > 0 || restart {
            // Start: any angle; the exact half-way quaternion (1 + u_z, u_y, −u_x, 0), halved so
            // that 1 + u_z ≤ 2 fits Q2.30. Upside down (1 + u_z ≈ 0): a half turn about x.
            let w = roundingShiftRight((1 << 30) &+ uz, by: 1)
            let correction = w > 0
                ? FixedQuaternion(
                    w: Q30(raw: saturatedInt32(w)), x: Q30(raw: saturatedInt32(roundingShiftRight(uy, by: 1))),
                    y: Q30(raw: saturatedInt32(roundingShiftRight(-ux, by: 1))), z: .zero)
                : FixedQuaternion(w: .zero, x: .one, y: .zero, z: .zero)
            inclination = (correction * inclination).normalized()
            if restart { return (0, 0) }
        } else {
            // Afterwards each correction is tiny: (1, φ/2) is the same rotation to third order.
            // φ = (u_y, −u_x) of a unit u (|u| ≤ 1 + 10⁻⁴ with the series above): φ/2 fits
            // Q2.30 and |(1, φ/2)|² ≤ 1.26, so the product with the unit inclination is ≤ 1.13:
            // neither needs its saturation (the same integers).
            let correction = FixedQuaternion(
                w: .one, x: Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight(phi.x, by: 1))),
                y: Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight(phi.y, by: 1))), z: .zero)
            inclination = FixedQuaternion.boundedProduct(correction, inclination).renormalized()
        }
        return phi
    }
}

