/// LSM9DS1 register facts, from ST's datasheet DocID025715 Rev 3 ("DS §section", "Table n").
enum LSM9DS1Registers {
    // MARK: Accelerometer and gyroscope part (DS §6, Table 21)
    static let interruptGeneratorConfigAccel: UInt8 = 0x06   // INT_GEN_CFG_XL (DS §7.3)
    static let interruptThresholdXAccel: UInt8 = 0x07        // INT_GEN_THS_X_XL, then Y (0x08), Z (0x09)
    static let interruptDurationAccel: UInt8 = 0x0A          // INT_GEN_DUR_XL (DS §7.7)
    static let int1Control: UInt8 = 0x0C                     // INT1_CTRL (DS §7.9)
    static let whoAmI: UInt8 = 0x0F                          // WHO_AM_I (DS §7.11; values in `ChipParts`)
    static let gyroControl1: UInt8 = 0x10                    // CTRL_REG1_G: ODR_G 7:5, FS_G 4:3, BW_G 1:0 (DS §7.12)
    static let temperatureLow: UInt8 = 0x15                  // OUT_TEMP_L/H (DS §7.18)
    static let gyroXLow: UInt8 = 0x18                        // OUT_X_L_G … OUT_Z_H_G (DS §7.20)
    static let control4: UInt8 = 0x1E                        // CTRL_REG4: LIR_XL1 bit 1 (DS §7.21)
    static let accelControl6: UInt8 = 0x20                   // CTRL_REG6_XL: ODR_XL 7:5, FS_XL 4:3 (DS §7.24)
    static let accelControl7: UInt8 = 0x21                   // CTRL_REG7_XL: HR, DCF 6:5, FDS, HPIS1 (DS §7.25)
    static let control8: UInt8 = 0x22                        // CTRL_REG8: BOOT, BDU, IF_ADD_INC, SW_RESET (DS §7.26)
    static let control9: UInt8 = 0x23                        // CTRL_REG9: FIFO_EN bit 1 (DS §7.27)
    static let interruptSourceAccel: UInt8 = 0x26            // INT_GEN_SRC_XL (DS §7.29)
    static let accelXLow: UInt8 = 0x28                       // OUT_X_L_XL … OUT_Z_H_XL (DS §7.31)
    static let fifoControl: UInt8 = 0x2E                     // FIFO_CTRL: FMODE 7:5, FTH 4:0 (DS §7.34)
    static let fifoSource: UInt8 = 0x2F                      // FIFO_SRC: FTH, OVRN, FSS 5:0 (DS §7.35)

    static let control8Reset: UInt8 = 0x05                   // SW_RESET, keeping IF_ADD_INC
    /// BDU (high and low bytes from the same sample) + IF_ADD_INC (bursts auto-increment).
    static let control8Operating: UInt8 = 0x44
    static let control9FIFOEnable: UInt8 = 0x02
    static let fifoModeBypass: UInt8 = 0x00
    /// FMODE = 110: continuous; when full, the oldest sample is overwritten and OVRN set (DS §3.5.3).
    static let fifoModeContinuous: UInt8 = 0xC0
    static let fifoOverrun: UInt8 = 0x40
    static let fifoUnreadMask: UInt8 = 0x3F
    static let int1DataReadyAccel: UInt8 = 0x01
    static let int1InterruptGeneratorAccel: UInt8 = 0x40
    /// CTRL_REG7_XL: HPIS1 (the interrupt generator sees high-passed acceleration, so gravity
    /// does not count as motion), DCF = 00 (cutoff ODR/50, DS Table 71).
    static let accelHighPassForInterrupt: UInt8 = 0x01
    /// INT_GEN_CFG_XL: OR of high events on X, Y and Z.
    static let interruptHighOnAnyAxis: UInt8 = 0x2A

    static let gyroRate = RegisterField(register: gyroControl1, mask: 0xE0)
    static let gyroFullScale = RegisterField(register: gyroControl1, mask: 0x18)
    static let gyroBandwidth = RegisterField(register: gyroControl1, mask: 0x03)

    /// DS Table 47: the gyro's low-pass cutoff (Hz) by ODR_G code and BW_G (0…3); nil where the
    /// datasheet gives none. The accelerometer's anti-aliasing follows its ODR by itself
    /// (BW_SCAL_ODR = 0, DS Table 67).
    static let gyroBandwidthsHz: [UInt8: [Double]] = [
        2: [16], 3: [14, 31], 4: [14, 29, 63, 78], 5: [21, 28, 57, 100], 6: [33, 40, 58, 100],
    ]
    static let accelRate = RegisterField(register: accelControl6, mask: 0xE0)
    /// DS Table 68 (ODR_XL): the accelerometer's own rates, used when the gyro is powered down
    /// (DS §3.1: then only the accelerometer runs, at ODR_XL).
    static let accelOnlyRates: [DataRate] = [
        DataRate(code: 1, hertz: 10), DataRate(code: 2, hertz: 50), DataRate(code: 3, hertz: 119),
        DataRate(code: 4, hertz: 238), DataRate(code: 5, hertz: 476), DataRate(code: 6, hertz: 952),
    ]
    /// CTRL_REG4 LIR_XL1: the accelerometer interrupt stays latched until INT_GEN_SRC_XL is read.
    static let latchAccelInterrupt = RegisterField(register: control4, mask: 0x02)
    /// INT_GEN_THS_*_XL compare with the output's upper bits: one step is 128 output LSB, i.e.
    /// full scale / 256 (the DS gives no unit; ST's sibling parts and SparkFun's driver notes
    /// read it so).
    static let interruptThresholdSteps = 256.0
    static let accelFullScale = RegisterField(register: accelControl6, mask: 0x18)

    /// DS Table 46 (ODR_G); with the gyro on, the accelerometer runs at the same rate (DS §3.1).
    static let sampleRates: [DataRate] = [
        DataRate(code: 1, hertz: 14.9), DataRate(code: 2, hertz: 59.5), DataRate(code: 3, hertz: 119),
        DataRate(code: 4, hertz: 238), DataRate(code: 5, hertz: 476), DataRate(code: 6, hertz: 952),
    ]

    /// DS Table 3 (G_So) and Table 45 (FS_G; code 2 is not available): ±°/s, °/s per LSB.
    static let gyroScales: [FullScale] = [
        FullScale(code: 0, range: 245, sensitivity: 0.00875),
        FullScale(code: 1, range: 500, sensitivity: 0.0175),
        FullScale(code: 3, range: 2000, sensitivity: 0.070),
    ]

    /// DS Table 3 (LA_So) and Table 67 (FS_XL; note the order 2, 16, 4, 8 g): ±g, g per LSB.
    static let accelScales: [FullScale] = [
        FullScale(code: 0, range: 2, sensitivity: 0.000061),
        FullScale(code: 2, range: 4, sensitivity: 0.000122),
        FullScale(code: 3, range: 8, sensitivity: 0.000244),
        FullScale(code: 1, range: 16, sensitivity: 0.000732),
    ]

    /// DS §3.3 (Figures 6 and 7, burst reads): with the gyro on, the address pointer jumps from
    /// OUT_Z_H_G (0x1D) to OUT_X_L_XL (0x28) and wraps from OUT_Z_H_XL (0x2D) back to OUT_X_L_G
    /// (0x18). So one burst from OUT_TEMP_L reads temperature, status, gyro and accel (15 bytes),
    /// and one burst from OUT_X_L_G of 12·n bytes reads n FIFO levels (each level is used up when
    /// OUT_Z_H_XL has been read).
    static let sampleSet = SampleSetLayout(register: temperatureLow, length: 15, accelAt: 9, gyroAt: 3, temperatureAt: 0)
    /// One FIFO level: gyro x, y, z then accel x, y, z.
    static let fifoSlotLength = 12
    static let fifoCapacity = 32

    /// DS Table 5: 16 LSB/°C, 0 LSB at 25 °C.
    static func temperatureCelsius(_ raw: Int16) -> Double { 25 + Double(raw) / 16 }

    // MARK: Magnetometer part (DS §8, Table 22)
    static let magnetometerWhoAmI: UInt8 = 0x0F              // WHO_AM_I_M (DS §8.1; value in `ChipParts`)
    static let magnetometerControl3: UInt8 = 0x22            // CTRL_REG3_M: MD 1:0 (DS §8.5)
    // CTRL_REG1_M … CTRL_REG4_M (DS §8.3–8.6), OUT_X_L_M … OUT_Z_H_M (DS §8.8), the sub-address
    // MSB for auto-increment (DS §6.1.1), SOFT_RST, OM/OMZ and MD: the LIS3MDL's addresses and
    // bits, driven through `LIS3MDLRegisters` by `STMagnetometer`.

    /// DS Table 114 (DO): Hz.
    static let magnetometerRates: [DataRate] = [
        DataRate(code: 0, hertz: 0.625), DataRate(code: 1, hertz: 1.25), DataRate(code: 2, hertz: 2.5),
        DataRate(code: 3, hertz: 5), DataRate(code: 4, hertz: 10), DataRate(code: 5, hertz: 20),
        DataRate(code: 6, hertz: 40), DataRate(code: 7, hertz: 80),
    ]

    /// DS Table 3 (M_GN) and Table 117 (FS): ±gauss, gauss per LSB.
    static let magnetometerScales: [FullScale] = [
        FullScale(code: 0, range: 4, sensitivity: 0.00014),
        FullScale(code: 1, range: 8, sensitivity: 0.00029),
        FullScale(code: 2, range: 12, sensitivity: 0.00043),
        FullScale(code: 3, range: 16, sensitivity: 0.00058),
    ]

    /// The magnetometer's sensing axes against the accel/gyro axes (DS Figure 2, "pin
    /// connections"): its X points the opposite way, Y and Z agree. Not a rotation (the two
    /// parts' axis sets have opposite handedness), so it is a per-axis sign, applied on decode.
    static let magnetometerAxisSigns = (x: -1.0, y: 1.0, z: 1.0)

    /// The row the shared driver (`STMagnetometer`) walks: the LIS3MDL's register map at the
    /// addresses above (DS §8.1–8.8), this part's rates, sensitivities and axes; BDU left clear.
    static let magnetometerMap = STMagnetometerMap(
        rates: magnetometerRates, scales: magnetometerScales, axisSigns: magnetometerAxisSigns, blockDataUpdate: false)

    static let microteslaPerGauss = 100.0
}
