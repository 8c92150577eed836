// Division: rare in a filter (it runs once per update at most, e.g. for atan2's ratio), since
// it is the one expensive integer operation: a 64-bit division is tens of cycles on x86 and a
// software routine (`__aeabi_ldivmod`, hundreds of cycles) on a Cortex-M0, which has no divide
// instruction. Prefer multiplying by a precomputed reciprocal or by 1/√x.

extension FixedMath {
    /// `dividend / divisor` in the same format, rounded to nearest (ties away from zero),
    /// **saturating** at `min`/`max`. Division by zero saturates by the dividend's sign
    /// (0 / 0 is 0). Accuracy: within ½ LSB. Cost: one 64-bit division.
    @inlinable
    public static func divide<Fixed: FixedPointNumber>(_ dividend: Fixed, by divisor: Fixed) -> Fixed {
        if divisor.raw == 0 {
            return dividend.raw > 0 ? .max : dividend.raw < 0 ? .min : .zero
        }
        let numerator = Int64(dividend.raw).magnitude << Fixed.fractionBits
        let denominator = Int64(divisor.raw).magnitude
        let quotient = Int64(clamping: (numerator &+ (denominator >> 1)) / denominator)
        let negative = (dividend.raw < 0) != (divisor.raw < 0)
        return Fixed(raw: saturatedInt32(negative ? -quotient : quotient))
    }
}
