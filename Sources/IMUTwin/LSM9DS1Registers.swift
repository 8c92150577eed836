import IMUGeometry

/// The LSM9DS1's facts the emulators walk, from ST's datasheet DocID025715 (rev 2, Nov 2014),
/// written independently of the project's drivers.
public enum LSM9DS1Registers {
    // MARK: Accelerometer and gyroscope (Table 21, §7)
    public static let interruptGeneratorConfigurationXL: UInt8 = 0x06 // §7.3 INT_GEN_CFG_XL
    public static let interruptThresholdXL: UInt8 = 0x07              // §7.4–7.6 INT_GEN_THS_X/Y/Z_XL (0x07–0x09)
    public static let interruptDurationXL: UInt8 = 0x0A               // §7.7 INT_GEN_DUR_XL (WAIT_XL, DUR_XL[6:0])
    public static let int1Control: UInt8 = 0x0C                       // §7.9 INT1_CTRL
    public static let whoAmI: UInt8 = 0x0F                            // §7.11 (its value: IMUDrivers' ChipParts)
    public static let control1G: UInt8 = 0x10                         // §7.12 CTRL_REG1_G (ODR_G 7:5, FS_G 4:3)
    public static let temperatureLow: UInt8 = 0x15                    // §7.17 OUT_TEMP_L/H
    public static let statusA: UInt8 = 0x17                           // §7.18 STATUS_REG
    public static let gyroXLow: UInt8 = 0x18                          // §7.19–7.21 OUT_X/Y/Z_G, 0x18–0x1D
    public static let gyroZHigh: UInt8 = 0x1D
    public static let control4: UInt8 = 0x1E                          // §7.22 CTRL_REG4 (LIR_XL1 bit 1)
    public static let control6XL: UInt8 = 0x20                        // §7.24 CTRL_REG6_XL (ODR_XL 7:5, FS_XL 4:3)
    public static let control7XL: UInt8 = 0x21                        // §7.25 CTRL_REG7_XL (DCF 6:5, HPIS1 bit 0)
    public static let control8: UInt8 = 0x22                          // §7.26 CTRL_REG8
    public static let control9: UInt8 = 0x23                          // §7.27 CTRL_REG9 (FIFO_EN bit 1, STOP_ON_FTH bit 0)
    public static let interruptSourceXL: UInt8 = 0x26                 // §7.29 INT_GEN_SRC_XL
    public static let statusB: UInt8 = 0x27                           // §7.30 STATUS_REG (copy of 0x17)
    public static let accelXLow: UInt8 = 0x28                         // §7.31–7.33 OUT_X/Y/Z_XL, 0x28–0x2D
    public static let accelZHigh: UInt8 = 0x2D
    public static let fifoControl: UInt8 = 0x2E                       // §7.34 FIFO_CTRL (FMODE 7:5, FTH 4:0)
    public static let fifoSource: UInt8 = 0x2F                        // §7.35 FIFO_SRC (FTH, OVRN, FSS[5:0])

    /// Table 21 defaults (everything else 0x00).
    public static let accelGyroDefaults: [UInt8: UInt8] = [control4: 0x38, 0x1F: 0x38, control8: 0x04]
    /// Table 21: registers a write may change.
    public static let accelGyroWritable: Set<UInt8> = Set(Array(0x04...0x0D) + Array(0x10...0x13) + Array(0x1E...0x24) + [0x2E] + Array(0x30...0x37))

    // CTRL_REG8 bits (Table 73).
    public static let boot: UInt8 = 0x80, activeLow: UInt8 = 0x20, addressIncrement: UInt8 = 0x04
    public static let bigEndian: UInt8 = 0x02, softwareReset: UInt8 = 0x01
    // STATUS_REG bits (Table 81).
    public static let statusIGXL: UInt8 = 0x40, statusTDA: UInt8 = 0x04, statusGDA: UInt8 = 0x02, statusXLDA: UInt8 = 0x01
    // INT1_CTRL bits (Table 40).
    public static let int1IGXL: UInt8 = 0x40, int1FSS5: UInt8 = 0x20, int1Overrun: UInt8 = 0x10, int1Threshold: UInt8 = 0x08
    public static let int1DataReadyG: UInt8 = 0x02, int1DataReadyXL: UInt8 = 0x01

    /// Table 46: ODR_G → rate (0: power-down; 7: not available, treated as power-down). With the
    /// gyro on, the accelerometer runs at this rate too (§3.1).
    public static let gyroRatesHz: [Double] = [0, 14.9, 59.5, 119, 238, 476, 952, 0]
    /// Table 68: ODR_XL → rate when only the accelerometer is on.
    public static let accelOnlyRatesHz: [Double] = [0, 10, 50, 119, 238, 476, 952, 0]
    /// Table 3 / §7.12: FS_G → range and sensitivity (10 is "not available"; treated as 245).
    public static let gyroFullScales: [(degreesPerSecond: Double, millidegreesPerSecondPerLSB: Double)] = [
        (245, 8.75), (500, 17.50), (245, 8.75), (2000, 70),
    ]
    /// Table 3 / §7.24: FS_XL 00 = ±2 g, 01 = ±16 g, 10 = ±4 g, 11 = ±8 g (note the order).
    public static let accelFullScales: [(g: Double, milligPerLSB: Double)] = [
        (2, 0.061), (16, 0.732), (4, 0.122), (8, 0.244),
    ]
    /// Table 5: 16 LSB/°C, 0 at 25 °C; Table 59: 12 bits, sign-extended.
    public static let temperatureLSBPerDegree = 16.0
    public static let temperatureZeroCelsius = 25.0

    /// §3.5: 32 levels, each a gyro set and an accel set.
    public static let fifoDepth = 32
    /// Table 84 FMODE values.
    public enum FIFOMode: UInt8 { case bypass = 0, fifo = 1, continuousToFIFO = 3, bypassToContinuous = 4, continuous = 6 }

    /// INT_GEN_THS_x_XL: the datasheet gives no unit. Read here as the upper 8 bits of the 16-bit
    /// output (threshold = THS × 128 LSB, i.e. full scale / 256 per step), as ST's sibling parts
    /// document; compared with the absolute value of each axis.
    public static let accelThresholdLSBPerStep = 128
    /// §7.25 Table 71: the high-pass cutoff for the interrupt generator is ODR / this, by DCF[1:0].
    public static let highPassCutoffDivisors: [Double] = [50, 100, 9, 400]
    /// CTRL_REG7_XL HPIS1: the interrupt generator sees high-pass filtered acceleration.
    public static let highPassForInterrupt: UInt8 = 0x01

    // MARK: Magnetometer (Table 22, §8)
    public static let magnetometerWhoAmI: UInt8 = 0x0F   // §8.4 (its value: IMUDrivers' ChipParts)
    public static let magnetometerOffsetXLow: UInt8 = 0x05 // §8.1–8.3 OFFSET_X/Y/Z_REG_L/H_M (0x05–0x0A)
    public static let magnetometerControl1: UInt8 = 0x20 // §8.5 CTRL_REG1_M (TEMP_COMP, OM, DO[2:0] 4:2, ST)
    public static let magnetometerControl2: UInt8 = 0x21 // §8.6 CTRL_REG2_M (FS 6:5, REBOOT 3, SOFT_RST 2)
    public static let magnetometerControl3: UInt8 = 0x22 // §8.7 CTRL_REG3_M (LP 5, MD 1:0)
    public static let magnetometerControl4: UInt8 = 0x23 // §8.8 CTRL_REG4_M (OMZ 3:2, BLE 1)
    public static let magnetometerStatus: UInt8 = 0x27   // §8.10 STATUS_REG_M
    public static let magnetometerXLow: UInt8 = 0x28     // §8.11–8.13 OUT_X/Y/Z_L/H_M, 0x28–0x2D
    public static let magnetometerZHigh: UInt8 = 0x2D
    /// Table 22 defaults: CTRL_REG1_M 0x10 (10 Hz), CTRL_REG3_M 0x03 (power-down), INT_CFG_M 0x08.
    public static let magnetometerDefaults: [UInt8: UInt8] = [0x20: 0x10, 0x22: 0x03, 0x30: 0x08]
    public static let magnetometerWritable: Set<UInt8> = Set(Array(0x05...0x0A) + Array(0x20...0x24) + [0x30, 0x32, 0x33])
    /// §5.1.1: the sub-address MSB asks for auto-increment (the register address is the 7 LSBs).
    public static let magnetometerAutoIncrement: UInt8 = 0x80
    /// Table 111: DO[2:0] → rate.
    public static let magnetometerRatesHz: [Double] = [0.625, 1.25, 2.5, 5, 10, 20, 40, 80]
    /// Table 3 / Table 114: FS → range and sensitivity.
    public static let magnetometerFullScales: [(gauss: Double, milligaussPerLSB: Double)] = [
        (4, 0.14), (8, 0.29), (12, 0.43), (16, 0.58),
    ]
    /// 1 gauss = 100 µT, so 1 mgauss = 0.1 µT.
    public static let microteslaPerMilligauss = 0.1

    /// How the magnetometer's sensing axes sit relative to the accel/gyro axes:
    /// `field in magnetometer axes = magnetometerAxesFromAccelGyroAxes · field in accel/gyro axes`.
    ///
    /// Only the X axis is reversed. The datasheet's pin-1 figure (Figure 1, "directions of the
    /// detectable magnetic fields") is, by the account of people who checked it on hardware,
    /// misleading: parts in the field (the Raspberry Pi Sense HAT through RTIMULib, and
    /// independently verified AHRS code) show the magnetometer's X opposite to the
    /// accelerometer's and Y, Z the same. That is a mirror, not a rotation, so it is a matrix
    /// here and not an `AxisRotation` (it is its own inverse).
    public static let magnetometerAxesFromAccelGyroAxes = Matrix3.diagonal(Vector3(-1, 1, 1))

    /// Noise: DocID025715 gives none. Typical values for this class of part (assumed): gyro
    /// 0.01 °/s/√Hz, accel 100 µg/√Hz, magnetometer 0.3 µT RMS at high performance.
    /// Zero-rate drift with temperature: not found in the DocID025715 text at hand; ST's gyros
    /// of the same generation give ±0.03 °/s per °C typical (I3G4250D "OffDr"), used here.
    public static let noise = NoiseDensities(
        gyroDegreesPerSecondPerRootHz: 0.01, accelGPerRootHz: 100e-6, magnetometerRMSMicrotesla: 0.3,
        gyroZeroRateDriftDegreesPerSecondPerCelsius: 0.03)
}
