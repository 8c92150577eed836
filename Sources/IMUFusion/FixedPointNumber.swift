/// A signed binary fixed-point number: a 32-bit integer `raw` that stands for
/// `raw / 2^fractionBits`.
///
/// Every arithmetic operation is integer-only, so results are bit-identical on every platform
/// (x86, ARM with or without an FPU, Embedded Swift). Products go through 64-bit intermediates.
///
/// Operators and their overflow behaviour (the same for every format):
/// - `+`, `-`, unary `-`: **saturating** — a result beyond the range is clamped to `max`/`min`
///   instead of wrapping (so a full-scale sensor value never flips sign).
/// - `&+`, `&-`: **wrapping** (two's complement), for sums whose range is known to fit.
/// - `*`: rounded and **saturating**; `&*`: rounded and wrapping.
/// - Rounding, wherever bits are dropped, is **round half up**: add `1 << (n − 1)` then shift
///   right arithmetically by `n`, so the error is within ±½ LSB and ties go towards +∞.
public protocol FixedPointNumber: Sendable, Comparable {
    /// How many of the 32 bits are fraction bits.
    static var fractionBits: Int { get }
    /// The underlying integer: the value times `2^fractionBits`.
    var raw: Int32 { get }
    /// The number whose underlying integer is `raw` (no scaling).
    init(raw: Int32)
}

// MARK: - Integer helpers shared by every format

/// `value / 2^shift`, rounded half up (ties towards +∞). `shift` must be in 1...62.
@inlinable @inline(__always)
func roundingShiftRight(_ value: Int64, by shift: Int) -> Int64 {
    (value &+ (Int64(1) &<< (shift &- 1))) &>> shift
}

/// `value / 2^shift`, rounded half up, for `shift` ≥ 0 (a shift of 0 is the value itself).
@inlinable @inline(__always)
func roundingShiftRight(_ value: Int64, byAtLeastZero shift: Int) -> Int64 {
    shift == 0 ? value : roundingShiftRight(value, by: shift)
}

/// The 64-bit value clamped into `Int32`: the saturation step of every saturating operation.
@inlinable @inline(__always)
func saturatedInt32(_ value: Int64) -> Int32 {
    Int32(clamping: value)
}

// MARK: - Constants, comparison

extension FixedPointNumber {
    /// Zero.
    @inlinable public static var zero: Self { Self(raw: 0) }
    /// The largest value, `(2^31 − 1) / 2^fractionBits`; where saturation ends up.
    @inlinable public static var max: Self { Self(raw: .max) }
    /// The smallest value, `−2^31 / 2^fractionBits`; where saturation ends up.
    @inlinable public static var min: Self { Self(raw: .min) }
    /// One least significant bit, `2^−fractionBits`.
    @inlinable public static var leastNonzeroMagnitude: Self { Self(raw: 1) }

    @inlinable @inline(__always)
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.raw < rhs.raw }
}

// MARK: - Addition and subtraction

extension FixedPointNumber {
    /// Saturating sum: clamped to `min`…`max` instead of wrapping.
    @inlinable @inline(__always)
    public static func + (lhs: Self, rhs: Self) -> Self {
        Self(raw: saturatedInt32(Int64(lhs.raw) &+ Int64(rhs.raw)))
    }

    /// Saturating difference: clamped to `min`…`max` instead of wrapping.
    @inlinable @inline(__always)
    public static func - (lhs: Self, rhs: Self) -> Self {
        Self(raw: saturatedInt32(Int64(lhs.raw) &- Int64(rhs.raw)))
    }

    /// Saturating negation: `-min` is `max` (one LSB short of the true value).
    @inlinable @inline(__always)
    public static prefix func - (operand: Self) -> Self {
        Self(raw: operand.raw == .min ? .max : -operand.raw)
    }

    /// Wrapping sum (two's complement); only where the range is known to fit.
    @inlinable @inline(__always)
    public static func &+ (lhs: Self, rhs: Self) -> Self { Self(raw: lhs.raw &+ rhs.raw) }

    /// Wrapping difference (two's complement); only where the range is known to fit.
    @inlinable @inline(__always)
    public static func &- (lhs: Self, rhs: Self) -> Self { Self(raw: lhs.raw &- rhs.raw) }

    @inlinable @inline(__always)
    public static func += (lhs: inout Self, rhs: Self) { lhs = lhs + rhs }

    @inlinable @inline(__always)
    public static func -= (lhs: inout Self, rhs: Self) { lhs = lhs - rhs }

    /// The magnitude, saturating (`min.magnitude` is `max`).
    @inlinable @inline(__always)
    public var magnitude: Self { raw < 0 ? -self : self }
}

// MARK: - Multiplication

extension FixedPointNumber {
    /// Product in the same format: 64-bit product, rounded half up, **saturating**.
    @inlinable @inline(__always)
    public static func * (lhs: Self, rhs: Self) -> Self {
        let product = Int64(lhs.raw) &* Int64(rhs.raw)
        return Self(raw: saturatedInt32(roundingShiftRight(product, by: fractionBits)))
    }

    /// Product in the same format: 64-bit product, rounded half up, **wrapping** (for products
    /// known to be in range, e.g. of unit quantities; one compare cheaper than `*`).
    @inlinable @inline(__always)
    public static func &* (lhs: Self, rhs: Self) -> Self {
        let product = Int64(lhs.raw) &* Int64(rhs.raw)
        return Self(raw: Int32(truncatingIfNeeded: roundingShiftRight(product, by: fractionBits)))
    }

    @inlinable @inline(__always)
    public static func *= (lhs: inout Self, rhs: Self) { lhs = lhs * rhs }

    /// This value times a Q2.30 factor (a gain, a unit-vector component, a matrix entry), in
    /// this format: rounded half up, **saturating**.
    @inlinable @inline(__always)
    public func multiplied(by factor: Q30) -> Self {
        let product = Int64(raw) &* Int64(factor.raw)
        return Self(raw: saturatedInt32(roundingShiftRight(product, by: Q30.fractionBits)))
    }

    /// This value times `2^exponent` (a shift), rounded half up when bits drop, **saturating**.
    @inlinable @inline(__always)
    public func scaled(byPowerOfTwo exponent: Int) -> Self {
        if exponent >= 0 {
            let shift = Swift.min(exponent, 32)
            return Self(raw: saturatedInt32(Int64(raw) &<< shift))
        }
        return Self(raw: Int32(truncatingIfNeeded: roundingShiftRight(Int64(raw), by: Swift.min(-exponent, 62))))
    }
}

// MARK: - Conversion between formats

extension FixedPointNumber {
    /// The same value in this format: rounded half up when the target has fewer fraction bits,
    /// **saturating** when it has fewer integer bits.
    @inlinable @inline(__always)
    public init<Other: FixedPointNumber>(_ other: Other) {
        let extraFractionBits = Self.fractionBits - Other.fractionBits
        if extraFractionBits >= 0 {
            self.init(raw: saturatedInt32(Int64(other.raw) &<< extraFractionBits))
        } else {
            self.init(raw: Int32(truncatingIfNeeded: roundingShiftRight(Int64(other.raw), by: -extraFractionBits)))
        }
    }
}
