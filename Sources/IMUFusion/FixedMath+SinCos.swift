// Sine and cosine by quadrant reduction and Taylor series. The reduced angle r has |r| ≤ π/4,
// where the series below are exact to well under 1 LSB (the first omitted terms are
// r¹³/13! ≈ 7 × 10⁻¹² and r¹⁴/14! ≈ 4 × 10⁻¹³); the error is the rounding of the Horner
// steps: within 2 LSB of Q2.30 over the whole Q3.29 domain (tests).
// The same series in r² give cos θ and sin θ / θ for building a quaternion from a rotation
// vector without a square root.

extension FixedMath {
    /// (sin θ, cos θ) of an angle in radians (any Q3.29 value, −4 … 4), as Q2.30.
    /// Accuracy: within 2 LSB (≈ 2 × 10⁻⁹). Cost: ~16 multiplies.
    @inlinable
    public static func sinCos(_ angle: Q29) -> (sin: Q30, cos: Q30) {
        // Quadrant n = round(θ · 2/π) in −3…3; r = θ − n·π/2, formed in Q60 so that π/2's
        // rounding does not show (π/2 to 60 fraction bits).
        let twoOverPiQ30: Int64 = 683_565_276
        let quadrant = roundingShiftRight(Int64(angle.raw) &* twoOverPiQ30, by: 59)
        let halfPiQ60: Int64 = 1_811_004_864_519_280_640
        let reducedQ60 = (Int64(angle.raw) &<< 31) &- quadrant &* halfPiQ60
        let r = roundingShiftRight(reducedQ60, by: 30)  // Q30, |r| ≤ π/4 + ε
        let series = cosineAndSinc(ofSquaredAngle: roundingShiftRight(r &* r, by: 30))
        let sine = roundingShiftRight(series.sinc &* r, by: 30)
        let cosine = series.cosine
        let s: Int64, c: Int64
        switch quadrant & 3 {
        case 0: (s, c) = (sine, cosine)
        case 1: (s, c) = (cosine, -sine)
        case 2: (s, c) = (-sine, -cosine)
        default: (s, c) = (-cosine, sine)
        }
        return (Q30(raw: saturatedInt32(s)), Q30(raw: saturatedInt32(c)))
    }

    /// sin θ of an angle in radians, as Q2.30 (see `sinCos`).
    @inlinable
    public static func sin(_ angle: Q29) -> Q30 { sinCos(angle).sin }

    /// cos θ of an angle in radians, as Q2.30 (see `sinCos`).
    @inlinable
    public static func cos(_ angle: Q29) -> Q30 { sinCos(angle).cos }

    /// cos θ and sin θ / θ from s = θ² (Q2.30, 0 ≤ s < 2), as Q2.30, by their Taylor series
    /// (cos to θ¹², sinc to θ¹⁰). Exact to < 1 LSB for θ ≤ π/4; for θ up to √2 the truncation
    /// is ≤ 1.5 × 10⁻⁹ (cos) and 10⁻⁸ (sinc).
    @inlinable @inline(__always)
    static func cosineAndSinc(ofSquaredAngle s: Int64) -> (cosine: Int64, sinc: Int64) {
        // Coefficients (−1)^k / (2k)! and (−1)^k / (2k+1)!, rounded to Q2.30.
        var c: Int64 = 2
        c = roundingShiftRight(c &* s, by: 30) &+ -296
        c = roundingShiftRight(c &* s, by: 30) &+ 26_631
        c = roundingShiftRight(c &* s, by: 30) &+ -1_491_308
        c = roundingShiftRight(c &* s, by: 30) &+ 44_739_243
        c = roundingShiftRight(c &* s, by: 30) &+ -536_870_912
        c = roundingShiftRight(c &* s, by: 30) &+ 1_073_741_824
        var k: Int64 = -27
        k = roundingShiftRight(k &* s, by: 30) &+ 2_959
        k = roundingShiftRight(k &* s, by: 30) &+ -213_044
        k = roundingShiftRight(k &* s, by: 30) &+ 8_947_849
        k = roundingShiftRight(k &* s, by: 30) &+ -178_956_971
        k = roundingShiftRight(k &* s, by: 30) &+ 1_073_741_824
        return (c, k)
    }

    /// cos θ and sin θ / θ from s = θ² for s ≤ 2⁻⁵ (|θ| ≤ 0.177 rad), as Q2.30, by their series
    /// to θ⁶: the first omitted terms, s⁴/8! and s⁴/9!, are below 2.5 × 10⁻¹¹ (0.03 LSB).
    @inlinable @inline(__always)
    static func cosineAndSinc(ofSmallSquaredAngle s: Int64) -> (cosine: Int64, sinc: Int64) {
        var c: Int64 = -1_491_308
        c = roundingShiftRight(c &* s, by: 30) &+ 44_739_243
        c = roundingShiftRight(c &* s, by: 30) &+ -536_870_912
        c = roundingShiftRight(c &* s, by: 30) &+ 1_073_741_824
        var k: Int64 = -213_044
        k = roundingShiftRight(k &* s, by: 30) &+ 8_947_849
        k = roundingShiftRight(k &* s, by: 30) &+ -178_956_971
        k = roundingShiftRight(k &* s, by: 30) &+ 1_073_741_824
        return (c, k)
    }
}
