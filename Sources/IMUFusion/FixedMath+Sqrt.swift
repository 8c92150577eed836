// Square roots and reciprocal square roots. Everything goes through one kernel: normalise the
// argument by an even shift into [¼, 1), take a degree-6 polynomial first guess (relative
// error < 1.9 × 10⁻⁶), refine with one Newton step (the error squares: ε → 1.5 ε², so
// < 10⁻¹¹). The step works on the residual 1 − m·y² at 2⁻⁶² resolution and yields 32
// fraction bits, so that what remains is the final rounding of each caller (≤ 1 LSB in the
// formats here).

extension FixedMath {
    /// 1/√x for x = `significand / 2^fractionBits` (`fractionBits` even) as
    /// `mantissa · 2^exponent / 2^32`, with `mantissa` in [2^32, 2^33] (1 … 2) and relative
    /// error ≤ 5 × 10⁻¹⁰. `significand` == 0 gives the largest mantissa with exponent 64, a
    /// stand-in for infinity that saturates wherever it is used.
    @inlinable @inline(__always)
    static func reciprocalSquareRootParts(
        ofSignificand significand: UInt64, fractionBits: Int
    ) -> (mantissa: Int64, exponent: Int) {
        guard significand != 0 else { return (Int64(1) << 33, 64) }
        let (m, shift) = normalizedForSquareRoot(significand)
        // x = m · 2^(64 − shift − fractionBits)  ⇒  1/√x = 1/√m · 2^((shift + fractionBits − 64) / 2)
        return (reciprocalSquareRootOfNormalized(m), (shift + fractionBits - 64) >> 1)
    }

    /// The top 32 bits (rounded) of `significand` shifted left by an even amount so that they
    /// lie in [2^30, 2^32): m in [¼, 1) as Q0.32. An even shift keeps its square root a power
    /// of two. `significand` must not be zero.
    @inlinable @inline(__always)
    static func normalizedForSquareRoot(_ significand: UInt64) -> (m: Int64, shift: Int) {
        let shift = significand.leadingZeroBitCount & ~1
        let normalized = significand << shift
        let top = (normalized >> 32) &+ ((normalized >> 31) & 1)
        return (Int64(Swift.min(top, 0xFFFF_FFFF)), shift)
    }

    /// 1/√m for m in [¼, 1) given as Q0.32 (2^30 ≤ m < 2^32); the result is a Q32 in (1, 2]
    /// (2^32 … 2^33), within 1.5 LSB (3.5 × 10⁻¹⁰).
    @inlinable @inline(__always)
    static func reciprocalSquareRootOfNormalized(_ m: Int64) -> Int64 {
        // First guess: a degree-6 polynomial in t = u − ¾, fitted (minimax in relative error,
        // 1.9 × 10⁻⁶) to 1/√u on [½, 1); for m < ½ it runs on u = 2m with the coefficients
        // times √2. Q2.30, evaluated Estrin-style (three multiply levels deep, not six).
        let lowerOctave = m < (Int64(1) << 31)
        let u = lowerOctave ? m >> 1 : m >> 2  // 2m or m as Q2.30, in [½, 1)
        let c0: Int64 = lowerOctave ? 1_753_412_573 : 1_239_849_921
        let c1: Int64 = lowerOctave ? -1_169_031_545 : -826_630_133
        let c2: Int64 = lowerOctave ? 1_169_193_339 : 826_744_538
        let c3: Int64 = lowerOctave ? -1_287_607_084 : -910_475_701
        let c4: Int64 = lowerOctave ? 1_495_304_429 : 1_057_339_902
        let c5: Int64 = lowerOctave ? -2_162_227_230 : -1_528_925_537
        let c6: Int64 = lowerOctave ? 2_716_367_114 : 1_920_761_606
        let t = u &- (3 << 28)  // |t| ≤ ¼
        let t2 = (t &* t) &>> 30
        let t4 = (t2 &* t2) &>> 30
        let low = c0 &+ ((c1 &* t) &>> 30)
        let middle = c2 &+ ((c3 &* t) &>> 30)
        let high = c4 &+ ((c5 &* t) &>> 30) &+ ((c6 &* t2) &>> 30)
        let y = low &+ ((t2 &* middle) &>> 30) &+ ((t4 &* high) &>> 30)
        // One Newton step, y + y·r/2 with the residual r = 1 − m·y² (|r| < 4 × 10⁻⁶) formed
        // in Q62 — m·y (Q32, ≈ √m < 1), then (m·y)·y (Q62, ≈ 1) — leaves 1.5 r² < 3 × 10⁻¹¹.
        let mTimesY = roundingShiftRight(m &* y, by: 30)
        let residual = (Int64(1) << 62) &- mTimesY &* y  // Q62, |r| < 2^45
        // y (Q30) · r (as Q40, < 2^23) is Q70; / 2 and down to Q32 is a shift of 39.
        return (y &<< 2) &+ roundingShiftRight(y &* (residual &>> 22), by: 39)
    }

    /// `mantissa / 2^32 · 2^exponent` as a raw value with `resultFractionBits`, rounded half
    /// up, saturating. `mantissa` is < 2^34.
    @inlinable @inline(__always)
    static func rawValue(mantissaQ32 mantissa: Int64, exponent: Int, resultFractionBits: Int) -> Int32 {
        let shift = exponent + resultFractionBits - 32
        if shift >= 0 {
            return shift >= 29 ? (mantissa == 0 ? 0 : .max) : saturatedInt32(mantissa << shift)
        }
        return shift <= -62 ? 0 : saturatedInt32(roundingShiftRight(mantissa, by: -shift))
    }

    /// 1/√x in the same format. Accuracy: within 1 LSB over the whole domain (tests).
    /// Saturates to `max` when 1/√x is out of range (x ≤ ¼ for Q2.30) and for x ≤ 0.
    /// Cost: 11 64-bit multiplies (six deep), a count-leading-zeros and shifts.
    @inlinable
    public static func reciprocalSquareRoot<Fixed: FixedPointNumber>(_ x: Fixed) -> Fixed {
        guard x.raw > 0 else { return .max }
        // The kernel needs an even number of fraction bits: give an odd format one more.
        let odd = Fixed.fractionBits & 1
        let parts = reciprocalSquareRootParts(
            ofSignificand: UInt64(x.raw) << odd, fractionBits: Fixed.fractionBits + odd)
        return Fixed(raw: rawValue(mantissaQ32: parts.mantissa, exponent: parts.exponent,
                                   resultFractionBits: Fixed.fractionBits))
    }

    /// √x in the same format (x · 1/√x). Accuracy: within 1 LSB (tests). Zero for x ≤ 0.
    @inlinable
    public static func squareRoot<Fixed: FixedPointNumber>(_ x: Fixed) -> Fixed {
        guard x.raw > 0 else { return .zero }
        let odd = Fixed.fractionBits & 1
        return Fixed(raw: squareRootRaw(
            ofSignificand: UInt64(x.raw) << odd, fractionBits: Fixed.fractionBits + odd,
            resultFractionBits: Fixed.fractionBits))
    }

    /// √(significand / 2^fractionBits) (even `fractionBits`) as a raw value with
    /// `resultFractionBits`, rounded, saturating. Used for lengths from 64-bit sums of squares.
    @inlinable @inline(__always)
    static func squareRootRaw(ofSignificand significand: UInt64, fractionBits: Int, resultFractionBits: Int) -> Int32 {
        guard significand != 0 else { return 0 }
        let (m, shift) = normalizedForSquareRoot(significand)
        let y = reciprocalSquareRootOfNormalized(m)
        // √m = m · 1/√m: Q0.32 × Q32 is Q64 and up to 2^65, too wide; with y = 2^32 + f
        // (f in [0, 2^32]) it is m + m·f / 2^32, whose product fits UInt64. Q32, in [½, 1).
        let product = UInt64(m) &* UInt64(y &- (Int64(1) << 32))
        let root = m &+ Int64((product >> 32) &+ ((product >> 31) & 1))
        // x = m · 2^(64 − shift − fractionBits)  ⇒  √x = √m · 2^((64 − shift − fractionBits) / 2)
        return rawValue(mantissaQ32: root, exponent: (64 - shift - fractionBits) >> 1,
                        resultFractionBits: resultFractionBits)
    }
}
