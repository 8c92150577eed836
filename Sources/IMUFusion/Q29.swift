/// Q3.29: a 32-bit signed number with 29 fraction bits, for **angles in radians** (what
/// `atan2` returns and `sin`/`cos` take) and rotation vectors ω·dt.
///
/// Range [−4, 4 − 2⁻²⁹]: a whole turn, −π…π, fits with room to spare. Resolution 2⁻²⁹ rad
/// ≈ 1.9 × 10⁻⁹ rad ≈ 1.1 × 10⁻⁷ °.
///
/// A rotation vector θ in Q3.29 has the same `raw` integers as the half-angle vector θ/2 in
/// Q2.30, which is what a quaternion is built from: the conversion costs nothing.
public struct Q29: FixedPointNumber {
    public static var fractionBits: Int { 29 }
    public var raw: Int32

    @inlinable @inline(__always)
    public init(raw: Int32) { self.raw = raw }

    /// π rounded to the nearest LSB (error 2.6 × 10⁻¹⁰ rad).
    @inlinable public static var pi: Q29 { Q29(raw: 1_686_629_713) }
    /// π/2 rounded to the nearest LSB.
    @inlinable public static var halfPi: Q29 { Q29(raw: 843_314_857) }
}
