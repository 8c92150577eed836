/// Q16.16: a 32-bit signed number with 16 fraction bits, for **physical quantities** in the
/// units of the design notes: angular rate in rad/s, acceleration in g, magnetic field in µT.
///
/// Range [−32768, 32768 − 2⁻¹⁶], resolution 2⁻¹⁶ ≈ 1.5 × 10⁻⁵. Against the sensors' full
/// scales that leaves wide headroom and a resolution finer than their LSB:
/// - gyro ±35 rad/s (±2000 °/s): headroom ×900; 1.5 × 10⁻⁵ rad/s ≈ 0.00087 °/s, below the
///   0.061 °/s LSB of a 16-bit ±2000 °/s gyro;
/// - accelerometer ±16 g: headroom ×2000; 1.5 × 10⁻⁵ g, below the 0.06 mg LSB of ±2 g;
/// - magnetometer ±1600 µT: headroom ×20; 1.5 × 10⁻⁵ µT against a 0.014 µT LSB.
/// Sums of three squared components (for lengths) are formed in 64 bits, so they never overflow.
public struct Q16: FixedPointNumber {
    public static var fractionBits: Int { 16 }
    public var raw: Int32

    @inlinable @inline(__always)
    public init(raw: Int32) { self.raw = raw }

    /// 1.0 exactly.
    @inlinable public static var one: Q16 { Q16(raw: 1 << 16) }

    /// The integer `value` in this format, saturating beyond ±32767.
    @inlinable @inline(__always)
    public init(integer value: Int) {
        self.init(raw: saturatedInt32(Int64(clamping: value) &* 65536))
    }
}
