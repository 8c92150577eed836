/// Q2.30: a 32-bit signed number with 30 fraction bits, for **unit quantities** — quaternion
/// components, unit-vector components, rotation-matrix entries, sines and cosines, gains and
/// filter coefficients in [0, 1], and time steps in seconds.
///
/// Range [−2, 2 − 2⁻³⁰], resolution (1 LSB) 2⁻³⁰ ≈ 9.3 × 10⁻¹⁰. One is exactly representable
/// (`raw` = 2³⁰) with headroom for one more, so `|q|² ≈ 1` and sums of two unit terms fit.
/// A time step dt in seconds (1 ms … 100 ms) has a resolution of about 1 ns here.
public struct Q30: FixedPointNumber {
    public static var fractionBits: Int { 30 }
    public var raw: Int32

    @inlinable @inline(__always)
    public init(raw: Int32) { self.raw = raw }

    /// 1.0 exactly.
    @inlinable public static var one: Q30 { Q30(raw: 1 << 30) }
    /// ½ exactly.
    @inlinable public static var half: Q30 { Q30(raw: 1 << 29) }
}
