// The cheap renormalisation for the per-sample attitude update. After q ⊗ δq of two unit
// quaternions, | |q|² − 1 | is a few LSB (≈ 10⁻⁸), where 1/√(1 + ε) = 1 − ε/2 + 3ε²/8 − …
// is exact to far below 1 LSB: a few multiplies instead of the full 1/√ kernel.

extension FixedQuaternion {
    /// q / |q| like `normalized()` — same bound, | |q|² − 1 | ≤ 4 LSB afterwards — but for a
    /// quaternion that is already nearly unit it uses 1/√(1 + ε) ≈ 1 − ε/2 + 3ε²/8 (error
    /// ≤ ε³ · 5/16 < 10⁻¹¹ for |ε| ≤ 2⁻¹²), about a third of the cost. Anything further from
    /// unit (|ε| > 2⁻¹², e.g. after a reset or a saturated step) goes through `normalized()`,
    /// so it is always safe to call. Use it after every `attitude * delta`.
    @inlinable @inline(__always)
    public func renormalized() -> FixedQuaternion {
        let one = Int64(1) << 58
        // ε = |q|² − 1 in Q58; |q|² ≤ 2^62, so the difference fits.
        let epsilon = Int64(squaredNormSignificand) &- one
        guard epsilon.magnitude <= UInt64(one >> 12) else { return normalized() }
        // 1/|q| as Q31: 1 − ε/2 + 3ε²/8. ε/2 in Q31 is ε(Q58) / 2^28; ε in Q31 (|·| ≤ 2^19)
        // squared is Q62, times 3/8 and down to Q31 is × 3, shift 34.
        let epsilonQ31 = roundingShiftRight(epsilon, by: 27)
        let mantissa = (Int64(1) << 31) &- roundingShiftRight(epsilon, by: 28)
            &+ roundingShiftRight(3 &* epsilonQ31 &* epsilonQ31, by: 34)
        // |c| ≤ |q| and mantissa ≈ 2^31/|q| (to 10⁻¹¹), so |c · mantissa| / 2^31 ≤ 1 + 2⁻³⁰:
        // inside Q2.30, no saturation needed.
        @inline(__always) func scale(_ c: Q30) -> Q30 {
            Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight(Int64(c.raw) &* mantissa, by: 31)))
        }
        return FixedQuaternion(w: scale(w), x: scale(x), y: scale(y), z: scale(z))
    }
}
