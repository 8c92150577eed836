import IMUGeometry

/// The LIS3MDL's facts the twin walks, from ST's datasheet DocID024204 Rev 6, written
/// independently of the project's drivers. Its register map is the LSM9DS1 magnetometer's (DS
/// §7, Table 16: WHO_AM_I 0x3D at 0x0F, CTRL_REG1–5 at 0x20–0x24, STATUS_REG 0x27, OUT 0x28–0x2D,
/// sub-address MSB for auto-increment, §5.1.1), so the twin is that emulator with these facts.
public enum LIS3MDLRegisters {
    /// Table 16 defaults: CTRL_REG1 0x10 (10 Hz), CTRL_REG3 0x03 (power-down), INT_CFG 0xE8.
    public static let defaults: [UInt8: UInt8] = [0x20: 0x10, 0x22: 0x03, 0x30: 0xE8]
    /// Table 16: CTRL_REG1–5, INT_CFG, INT_THS_L/H (no offset registers, unlike the LSM9DS1's).
    public static let writable: Set<UInt8> = Set(Array(0x20...0x24) + [0x30, 0x32, 0x33])
    /// Table 3 (GN): 6842, 3421, 2281, 1711 LSB/gauss at ±4, ±8, ±12, ±16 gauss, as mgauss per LSB.
    public static let milligaussPerLSB: [Double] = [1000 / 6842, 1000 / 3421, 1000 / 2281, 1000 / 1711]
    /// The LIS3MDL's axes against the accel/gyro part beside it, both packages with pin 1 in the
    /// same corner (ST draws both parts' axes alike from pin 1, DS Figure 2): the same.
    public static let axesFromAccelGyroAxes = Matrix3.diagonal(Vector3(1, 1, 1))

    public static let facts = LSM9DS1MagnetometerEmulator.Facts(
        defaults: defaults, writable: writable, milligaussPerLSB: milligaussPerLSB, axesFromAccelGyroAxes: axesFromAccelGyroAxes)

    /// Table 3: RMS noise in ultra-high-performance mode 3.2 mgauss (x, y), 3.5 mgauss (z) at ±4
    /// gauss: 0.35 µT, the larger, on every axis.
    public static let rmsNoiseMicrotesla = 0.35
}
