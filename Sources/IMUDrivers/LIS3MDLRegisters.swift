/// LIS3MDL register facts, from ST's datasheet DocID024204 Rev 6 ("DS §section", "Table n").
/// Its map is the LSM9DS1 magnetometer's (the same WHO_AM_I 0x3D, the same control registers),
/// with its own sensitivities.
enum LIS3MDLRegisters {
    static let whoAmI: UInt8 = 0x0F           // WHO_AM_I (DS §7.1; value in `ChipParts`)
    static let control1: UInt8 = 0x20         // CTRL_REG1: TEMP_EN, OM 6:5, DO 4:2, FAST_ODR, ST (DS §7.2)
    static let control2: UInt8 = 0x21         // CTRL_REG2: FS 6:5, REBOOT, SOFT_RST (DS §7.3)
    static let control3: UInt8 = 0x22         // CTRL_REG3: LP, SIM, MD 1:0 (DS §7.4)
    static let control4: UInt8 = 0x23         // CTRL_REG4: OMZ 3:2, BLE (DS §7.5)
    static let control5: UInt8 = 0x24         // CTRL_REG5: FAST_READ, BDU (DS §7.6)
    static let xLow: UInt8 = 0x28             // OUT_X_L … OUT_Z_H (DS §7.8–7.10)

    /// DS §5.1.1: a multi-byte access increments the sub-address only with its MSB set.
    static let autoIncrement: UInt8 = 0x80
    static let softReset: UInt8 = 0x04
    /// OM = 11: ultra-high-performance x and y (DS Table 21), the rate in DO.
    static let ultraHighPerformanceXY: UInt8 = 0x60
    /// OMZ = 11: ultra-high-performance z (DS Table 28).
    static let ultraHighPerformanceZ: UInt8 = 0x0C
    /// CTRL_REG5 BDU: the output registers are not updated until both bytes are read.
    static let blockDataUpdate: UInt8 = 0x40
    static let continuous: UInt8 = 0x00
    static let powerDown: UInt8 = 0x03

    static let rate = RegisterField(register: control1, mask: 0x1C)
    static let fullScale = RegisterField(register: control2, mask: 0x60)

    /// DS Table 20 (DO, FAST_ODR = 0): Hz.
    static let rates: [DataRate] = [
        DataRate(code: 0, hertz: 0.625), DataRate(code: 1, hertz: 1.25), DataRate(code: 2, hertz: 2.5),
        DataRate(code: 3, hertz: 5), DataRate(code: 4, hertz: 10), DataRate(code: 5, hertz: 20),
        DataRate(code: 6, hertz: 40), DataRate(code: 7, hertz: 80),
    ]

    /// DS Table 3 (GN: 6842, 3421, 2281, 1711 LSB/gauss) and Table 25 (FS): ±gauss, gauss per LSB.
    static let scales: [FullScale] = [
        FullScale(code: 0, range: 4, sensitivity: 1 / 6842),
        FullScale(code: 1, range: 8, sensitivity: 1 / 3421),
        FullScale(code: 2, range: 12, sensitivity: 1 / 2281),
        FullScale(code: 3, range: 16, sensitivity: 1 / 1711),
    ]

    /// The LIS3MDL's sensing axes against the LSM6DSx's, for a board that places both packages
    /// with pin 1 in the same corner: ST draws both parts' axes the same way from pin 1 (DS
    /// Figure 2; LSM6DSL DS Figure 2), right-handed, so they agree. OzzMaker's BerryIMU v3 code
    /// tilt-compensates the LIS3MDL without the z flip its LSM9DS1 branch needs, which agrees.
    /// A board that turns one package against the other needs its own row (see Docs/chips-lsm6dsx.md).
    static let axisSigns = (x: 1.0, y: 1.0, z: 1.0)

    /// The row the shared driver (`STMagnetometer`) walks; BDU set (DS §7.6).
    static let map = STMagnetometerMap(rates: rates, scales: scales, axisSigns: axisSigns, blockDataUpdate: true)

    static let microteslaPerGauss = 100.0
}
