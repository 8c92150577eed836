/// A 3-vector of fixed-point numbers: `FixedVector3<Q30>` for unit vectors and directions,
/// `FixedVector3<Q16>` for physical samples (rad/s, g, µT), `FixedVector3<Q29>` for rotation
/// vectors in radians.
///
/// Sums and differences saturate per component. Dot and cross products accumulate their
/// 64-bit products exactly and round once (half up), then saturate.
public struct FixedVector3<Scalar: FixedPointNumber>: Sendable, Equatable {
    public var x: Scalar
    public var y: Scalar
    public var z: Scalar

    @inlinable @inline(__always)
    public init(x: Scalar, y: Scalar, z: Scalar) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// (0, 0, 0).
    @inlinable public static var zero: Self { Self(x: .zero, y: .zero, z: .zero) }

    /// Saturating component-wise sum.
    @inlinable @inline(__always)
    public static func + (lhs: Self, rhs: Self) -> Self {
        Self(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    /// Saturating component-wise difference.
    @inlinable @inline(__always)
    public static func - (lhs: Self, rhs: Self) -> Self {
        Self(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    /// Saturating negation.
    @inlinable @inline(__always)
    public static prefix func - (operand: Self) -> Self {
        Self(x: -operand.x, y: -operand.y, z: -operand.z)
    }

    /// Each component times a scalar in the same format (rounded, saturating).
    @inlinable @inline(__always)
    public static func * (lhs: Self, rhs: Scalar) -> Self {
        Self(x: lhs.x * rhs, y: lhs.y * rhs, z: lhs.z * rhs)
    }

    /// Each component times a Q2.30 factor, e.g. a gain (rounded, saturating).
    @inlinable @inline(__always)
    public func multiplied(by factor: Q30) -> Self {
        Self(x: x.multiplied(by: factor), y: y.multiplied(by: factor), z: z.multiplied(by: factor))
    }

    /// x·x' + y·y' + z·z' in the same format: one rounding, saturating (even at full scale).
    @inlinable @inline(__always)
    public func dot(_ other: Self) -> Scalar {
        // Each product is ≤ 2^62; halving them first keeps the sum of three inside Int64.
        let sum = (Int64(x.raw) &* Int64(other.x.raw)) &>> 1 &+ (Int64(y.raw) &* Int64(other.y.raw)) &>> 1
            &+ (Int64(z.raw) &* Int64(other.z.raw)) &>> 1
        return Scalar(raw: saturatedInt32(roundingShiftRight(sum, by: Scalar.fractionBits &- 1)))
    }

    /// The cross product self × other (right-handed), one rounding per component, saturating
    /// (even at full scale).
    @inlinable @inline(__always)
    public func cross(_ other: Self) -> Self {
        // Halved products: a difference of two full-scale products would not fit Int64.
        let shift = Scalar.fractionBits &- 1
        let cx = (Int64(y.raw) &* Int64(other.z.raw)) &>> 1 &- (Int64(z.raw) &* Int64(other.y.raw)) &>> 1
        let cy = (Int64(z.raw) &* Int64(other.x.raw)) &>> 1 &- (Int64(x.raw) &* Int64(other.z.raw)) &>> 1
        let cz = (Int64(x.raw) &* Int64(other.y.raw)) &>> 1 &- (Int64(y.raw) &* Int64(other.x.raw)) &>> 1
        return Self(
            x: Scalar(raw: saturatedInt32(roundingShiftRight(cx, by: shift))),
            y: Scalar(raw: saturatedInt32(roundingShiftRight(cy, by: shift))),
            z: Scalar(raw: saturatedInt32(roundingShiftRight(cz, by: shift))))
    }

    /// x² + y² + z² exactly, with 2·fractionBits fraction bits (never overflows: ≤ 3 · 2⁶²).
    @inlinable @inline(__always)
    public var squaredLengthSignificand: UInt64 {
        UInt64(Int64(x.raw) &* Int64(x.raw)) &+ UInt64(Int64(y.raw) &* Int64(y.raw))
            &+ UInt64(Int64(z.raw) &* Int64(z.raw))
    }

    /// The Euclidean length in the same format, within 1.5 LSB (tests), saturating.
    @inlinable
    public var length: Scalar {
        Scalar(raw: FixedMath.squareRootRaw(
            ofSignificand: squaredLengthSignificand, fractionBits: 2 * Scalar.fractionBits,
            resultFractionBits: Scalar.fractionBits))
    }

    /// The unit vector along this one, as Q2.30 (each component within 2 LSB of the exact
    /// direction), or nil for the zero vector. Works for any magnitude the format holds, e.g.
    /// an accelerometer sample in g or a magnetometer sample in µT.
    @inlinable
    public var direction: FixedVector3<Q30>? {
        let squaredLength = squaredLengthSignificand
        guard squaredLength != 0 else { return nil }
        let parts = FixedMath.reciprocalSquareRootParts(
            ofSignificand: squaredLength, fractionBits: 2 * Scalar.fractionBits)
        // The mantissa as Q31 (< 2^32) keeps component × mantissa inside Int64.
        let mantissa = roundingShiftRight(parts.mantissa, by: 1)
        // component (Q_f) · mantissa (Q31) · 2^exponent → Q30: shift right by f + 1 − exponent.
        let shift = Scalar.fractionBits + 1 - parts.exponent
        @inline(__always) func scale(_ component: Scalar) -> Q30 {
            let product = Int64(component.raw) &* mantissa
            if shift <= 0 { return Q30(raw: saturatedInt32(product << Swift.min(-shift, 32))) }
            return Q30(raw: saturatedInt32(roundingShiftRight(product, by: Swift.min(shift, 62))))
        }
        return FixedVector3<Q30>(x: scale(x), y: scale(y), z: scale(z))
    }
}

extension FixedVector3 {
    /// The same vector in another format: rounded when bits drop, saturating.
    @inlinable @inline(__always)
    public init<Other>(_ other: FixedVector3<Other>) {
        self.init(x: Scalar(other.x), y: Scalar(other.y), z: Scalar(other.z))
    }
}
