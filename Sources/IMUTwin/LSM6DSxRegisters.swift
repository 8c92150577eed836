/// The LSM6DS3 / LSM6DS3TR-C / LSM6DSL / LSM6DSOX facts the emulator walks, from ST's
/// datasheets (LSM6DSL DocID028475 "DSL", LSM6DS3 DocID026899 "DS3", LSM6DSOX DS12814 "DSOX"),
/// written independently of the project's drivers. What differs between the parts is a
/// `LSM6DSxTwinMap` row.
public enum LSM6DSxRegisters {
    // MARK: Registers at the same address on every part (DSL Table 19, DSOX Table 20)
    public static let int1Control: UInt8 = 0x0D      // INT1_CTRL: DRDY_XL 0, DRDY_G 1
    public static let whoAmI: UInt8 = 0x0F
    public static let control1XL: UInt8 = 0x10       // CTRL1_XL: ODR_XL 7:4, FS_XL 3:2
    public static let control2G: UInt8 = 0x11        // CTRL2_G: ODR_G 7:4, FS_G 3:2, FS_125 1
    public static let control3: UInt8 = 0x12         // CTRL3_C: BOOT 7, BDU 6, H_LACTIVE 5, IF_INC 2, BLE 1, SW_RESET 0
    public static let wakeUpSource: UInt8 = 0x1B     // WAKE_UP_SRC: WU_IA 3, X_WU 2, Y_WU 1, Z_WU 0
    public static let status: UInt8 = 0x1E           // STATUS_REG: TDA 2, GDA 1, XLDA 0
    public static let temperatureLow: UInt8 = 0x20   // OUT_TEMP_L/H
    public static let gyroXLow: UInt8 = 0x22         // OUTX_L_G … OUTZ_H_G
    public static let accelXLow: UInt8 = 0x28        // OUTX_L_XL … OUTZ_H_XL
    public static let accelZHigh: UInt8 = 0x2D
    public static let fifoStatus1: UInt8 = 0x3A
    public static let wakeUpThreshold: UInt8 = 0x5B  // WAKE_UP_THS: WK_THS 5:0 (FS_XL / 64 per step)
    public static let wakeUpDuration: UInt8 = 0x5C   // WAKE_UP_DUR: WAKE_DUR 6:5 (ODR periods)
    public static let md1Config: UInt8 = 0x5E        // MD1_CFG: INT1_WU 5

    /// DSL Table 19 / DSOX Table 20: CTRL3_C resets to IF_INC; everything this twin models else 0.
    public static let defaults: [UInt8: UInt8] = [control3: 0x04]
    /// Control and configuration registers a write may change (the union of the parts' maps).
    public static let writable: Set<UInt8> = Set([0x01] + Array(0x04...0x0E) + Array(0x10...0x19) + Array(0x56...0x5F))

    public static let softwareReset: UInt8 = 0x01, addressIncrement: UInt8 = 0x04, bigEndian: UInt8 = 0x02
    public static let activeLow: UInt8 = 0x20
    public static let statusTDA: UInt8 = 0x04, statusGDA: UInt8 = 0x02, statusXLDA: UInt8 = 0x01

    /// DSL Table 52 / DSOX Table 52 (ODR_XL), Table 55 (ODR_G): code → Hz (0: power-down; codes
    /// above 10 other than 11 are not rates; 11 is 1.6 Hz in low-power, 12.5 Hz otherwise).
    public static func rateHz(code: UInt8, lowPower: Bool) -> Double {
        if code == 11 { return lowPower ? 1.6 : 12.5 }
        return code < ratesHz.count ? ratesHz[Int(code)] : 0
    }
    static let ratesHz: [Double] = [0, 12.5, 26, 52, 104, 208, 416, 833, 1666, 3332, 6664]

    /// DSL Table 3 (LA_So) by FS_XL (00 ±2, 01 ±16, 10 ±4, 11 ±8 g): mg per LSB.
    public static let accelMilligPerLSB: [Double] = [0.061, 0.488, 0.122, 0.244]
    /// DSL Table 3 (G_So) by FS_G (00 245, 01 500, 10 1000, 11 2000 °/s): mdps per LSB; FS_125 → 4.375.
    public static let gyroMillidegreesPerSecondPerLSB: [Double] = [8.75, 17.5, 35, 70]
    public static let gyro125MillidegreesPerSecondPerLSB = 4.375
    /// DSL Table 3: accelerometer full scale in g by FS_XL, for the wake-up threshold's step.
    public static let accelRangeG: [Double] = [2, 16, 4, 8]
}

/// The two FIFO layouts (DSL §8 pattern of 16-bit words; DSOX §6.5 tagged entries).
public enum LSM6DSxTwinFIFO: Sendable {
    /// FIFO_CTRL3 (0x08) DEC_FIFO_GYRO 5:3 / DEC_FIFO_XL 2:0, FIFO_CTRL5 (0x0A) ODR_FIFO 6:3,
    /// FIFO_MODE 2:0; words out at 0x3E/0x3F; FIFO_STATUS1–4 (DIFF_FIFO, flags, FIFO_PATTERN).
    case pattern(capacityWords: Int, unreadHighMask: UInt8)
    /// FIFO_CTRL3 (0x09) BDR_GY 7:4 / BDR_XL 3:0, FIFO_CTRL4 (0x0A) FIFO_MODE 2:0; entries (tag
    /// + 6 bytes) out at 0x78–0x7E; FIFO_STATUS1–2 (DIFF_FIFO 9:0, flags).
    case tagged(capacityEntries: Int)
}

/// Where the parts differ, for the twin.
public struct LSM6DSxTwinMap: Sendable {
    public let fifo: LSM6DSxTwinFIFO
    /// OUT_TEMP LSB per °C, 0 at 25 °C (DS3 Table 5: 16; DSL Table 5, DSOX Table 4: 256).
    public let temperatureLSBPerDegree: Double
    /// LIR (bit 0) and SLOPE_FDS (bit 4): TAP_CFG 0x58 (DS3, DSL), TAP_CFG0 0x56 (DSOX).
    public let latchRegister: UInt8
    /// INTERRUPTS_ENABLE (bit 7) gating the wake-up (DSL TAP_CFG, DSOX TAP_CFG2, both 0x58);
    /// nil on the LSM6DS3, whose wake-up needs none.
    public let interruptsEnableRegister: UInt8?
    public let noise: NoiseDensities

    /// DS3 Table 3: rate noise density 7 mdps/√Hz, 90 µg/√Hz; zero-rate change 0.05 dps/°C.
    public static let lsm6ds3 = LSM6DSxTwinMap(
        fifo: .pattern(capacityWords: 4096, unreadHighMask: 0x0F), temperatureLSBPerDegree: 16,
        latchRegister: 0x58, interruptsEnableRegister: nil,
        noise: NoiseDensities(
            gyroDegreesPerSecondPerRootHz: 0.007, accelGPerRootHz: 90e-6, magnetometerRMSMicrotesla: LIS3MDLRegisters.rmsNoiseMicrotesla,
            gyroZeroRateDriftDegreesPerSecondPerCelsius: 0.05))
    /// DSL Table 3: 4 mdps/√Hz, 80 µg/√Hz (±2 g); zero-rate change 0.015 dps/°C. The LSM6DS3TR-C's
    /// Table 3 gives the same figures.
    public static let lsm6dsl = LSM6DSxTwinMap(
        fifo: .pattern(capacityWords: 2048, unreadHighMask: 0x07), temperatureLSBPerDegree: 256,
        latchRegister: 0x58, interruptsEnableRegister: 0x58,
        noise: NoiseDensities(
            gyroDegreesPerSecondPerRootHz: 0.004, accelGPerRootHz: 80e-6, magnetometerRMSMicrotesla: LIS3MDLRegisters.rmsNoiseMicrotesla,
            gyroZeroRateDriftDegreesPerSecondPerCelsius: 0.015))
    /// DSOX Table 2: 3.8 mdps/√Hz, 70 µg/√Hz (high performance); zero-rate change 0.01 dps/°C.
    public static let lsm6dsox = LSM6DSxTwinMap(
        fifo: .tagged(capacityEntries: 512), temperatureLSBPerDegree: 256,
        latchRegister: 0x56, interruptsEnableRegister: 0x58,
        noise: NoiseDensities(
            gyroDegreesPerSecondPerRootHz: 0.0038, accelGPerRootHz: 70e-6, magnetometerRMSMicrotesla: LIS3MDLRegisters.rmsNoiseMicrotesla,
            gyroZeroRateDriftDegreesPerSecondPerCelsius: 0.01))
}
