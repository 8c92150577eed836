/// The ICM-20948's facts the emulator walks, written from TDK InvenSense's datasheet
/// (DS-000189 rev 1.3, "DS §section"), not from the project's driver: §7 register map (user
/// banks 0–3, REG_BANK_SEL at 0x7F in each), §8 bank 0, §10 bank 2, §3 specifications.
public enum ICM20948Registers {
    public static let bankSelect: UInt8 = 0x7F          // DS §8.65 REG_BANK_SEL: USER_BANK 5:4

    // Bank 0 (DS §8).
    public static let whoAmI: UInt8 = 0x00               // DS §8.1
    public static let userControl: UInt8 = 0x03          // DS §8.2 USER_CTRL: FIFO_EN 6, I2C_MST_EN 5
    public static let lowPowerConfig: UInt8 = 0x05       // DS §8.3 LP_CONFIG: ACCEL_CYCLE 5
    public static let powerManagement1: UInt8 = 0x06     // DS §8.4 PWR_MGMT_1
    public static let powerManagement2: UInt8 = 0x07     // DS §8.5 PWR_MGMT_2: DISABLE_ACCEL 5:3, DISABLE_GYRO 2:0
    public static let interruptPinConfig: UInt8 = 0x0F   // DS §8.6 INT_PIN_CFG
    public static let interruptEnable: UInt8 = 0x10      // DS §8.7 INT_ENABLE: WOM_INT_EN 3
    public static let interruptEnable1: UInt8 = 0x11     // DS §8.8 INT_ENABLE_1: RAW_DATA_0_RDY_EN 0
    public static let interruptEnable2: UInt8 = 0x12     // DS §8.9 INT_ENABLE_2: FIFO_OVERFLOW_EN 4:0
    public static let interruptStatus: UInt8 = 0x19      // DS §8.13 INT_STATUS: WOM_INT 3
    public static let interruptStatus1: UInt8 = 0x1A     // DS §8.14 INT_STATUS_1: RAW_DATA_0_RDY_INT 0
    public static let interruptStatus2: UInt8 = 0x1B     // DS §8.15 INT_STATUS_2: FIFO_OVERFLOW_INT 4:0
    public static let accelXHigh: UInt8 = 0x2D           // DS §8.18–8.23
    public static let gyroXHigh: UInt8 = 0x33            // DS §8.24–8.29
    public static let temperatureHigh: UInt8 = 0x39      // DS §8.30–8.31
    public static let fifoEnable2: UInt8 = 0x67          // DS §8.56 FIFO_EN_2
    public static let fifoReset: UInt8 = 0x68            // DS §8.57 FIFO_RST
    public static let fifoMode: UInt8 = 0x69             // DS §8.58 FIFO_MODE: 0 stream, 1 snapshot
    public static let fifoCountHigh: UInt8 = 0x70        // DS §8.59 FIFO_COUNTH: FIFO_CNT[12:8]
    public static let fifoCountLow: UInt8 = 0x71         // DS §8.60
    public static let fifoReadWrite: UInt8 = 0x72        // DS §8.61 FIFO_R_W
    public static let dataReadyStatus: UInt8 = 0x74      // DS §8.62 DATA_RDY_STATUS

    // Bank 2 (DS §10).
    public static let gyroRateDivider: UInt8 = 0x00      // DS §10.1 GYRO_SMPLRT_DIV
    public static let gyroConfig1: UInt8 = 0x01          // DS §10.2 GYRO_CONFIG_1: DLPFCFG 5:3, FS_SEL 2:1, FCHOICE 0
    public static let accelRateDivider1: UInt8 = 0x10    // DS §10.10 ACCEL_SMPLRT_DIV_1 (bits 11:8)
    public static let accelRateDivider2: UInt8 = 0x11    // DS §10.11 ACCEL_SMPLRT_DIV_2
    public static let accelIntelligence: UInt8 = 0x12    // DS §10.12 ACCEL_INTEL_CTRL: EN 1, MODE_INT 0
    public static let wakeOnMotionThreshold: UInt8 = 0x13 // DS §10.13 ACCEL_WOM_THR
    public static let accelConfig: UInt8 = 0x14          // DS §10.14 ACCEL_CONFIG: DLPFCFG 5:3, FS_SEL 2:1, FCHOICE 0

    /// DS §7 (register map, reset values): bank 0 LP_CONFIG 0x40, PWR_MGMT_1 0x41 (asleep,
    /// CLKSEL 1); bank 2 GYRO_CONFIG_1 and ACCEL_CONFIG 0x01 (FCHOICE); every other 0x00.
    /// (WHO_AM_I's 0xEA comes from IMUDrivers' ChipParts.)
    public static let bank0Defaults: [UInt8: UInt8] = [lowPowerConfig: 0x40, powerManagement1: 0x41]
    public static let bank2Defaults: [UInt8: UInt8] = [gyroConfig1: 0x01, accelConfig: 0x01]

    /// Bank-0 registers a write does not change.
    public static let readOnlyBank0: Set<UInt8> = Set(
        [whoAmI, interruptStatus, interruptStatus1, interruptStatus2, fifoCountHigh, fifoCountLow, dataReadyStatus]
            + Array(0x2D...0x52))

    public static let powerDeviceReset: UInt8 = 0x80, powerSleep: UInt8 = 0x40, powerLowPower: UInt8 = 0x20
    public static let accelCycle: UInt8 = 0x20
    public static let userFIFOEnable: UInt8 = 0x40, userI2CMaster: UInt8 = 0x20
    public static let pinActiveLow: UInt8 = 0x80, pinLatch: UInt8 = 0x20, pinAnyReadClears: UInt8 = 0x10, pinBypass: UInt8 = 0x02
    public static let wakeOnMotionInterrupt: UInt8 = 0x08, rawDataReady: UInt8 = 0x01, fifoOverflow: UInt8 = 0x1F
    public static let intelligenceEnable: UInt8 = 0x02, intelligenceCompare: UInt8 = 0x01

    /// DS §10.2: GYRO_FS_SEL → ±°/s and LSB per °/s (Table 1).
    public static let gyroFullScales: [(degreesPerSecond: Double, lsbPerDegreePerSecond: Double)] = [
        (250, 131), (500, 65.5), (1000, 32.8), (2000, 16.4),
    ]
    /// DS §10.14: ACCEL_FS_SEL → ±g and LSB per g (Table 2).
    public static let accelFullScales: [(g: Double, lsbPerG: Double)] = [(2, 16384), (4, 8192), (8, 4096), (16, 2048)]

    /// DS §10.2 Table 16: GYRO_DLPFCFG → 3 dB bandwidth with GYRO_FCHOICE = 1 (rate 1.1 kHz / (1 + div));
    /// with FCHOICE = 0 the filter is bypassed: 12 106 Hz at 9 kHz.
    public static let gyroLowPassHz: [Double] = [196.6, 151.8, 119.5, 51.2, 23.9, 11.6, 5.7, 361.4]
    public static let gyroBypassHz = 12106.0, gyroBypassRateHz = 9000.0, gyroBaseRateHz = 1100.0
    /// DS §10.14 Table 18: ACCEL_DLPFCFG → 3 dB bandwidth with ACCEL_FCHOICE = 1 (1.125 kHz / (1 + div));
    /// bypassed: 1209 Hz at 4.5 kHz.
    public static let accelLowPassHz: [Double] = [246.0, 246.0, 111.4, 50.4, 23.9, 11.5, 5.7, 473]
    public static let accelBypassHz = 1209.0, accelBypassRateHz = 4500.0, accelBaseRateHz = 1125.0

    /// DS §4.16: 512-byte FIFO. Written in register order: accel, gyro x, y, z, temperature.
    public static let fifoCapacityBytes = 512
    public static let fifoSources: [(enableBit: UInt8, firstRegister: UInt8, byteCount: Int)] = [
        (0x10, 0x2D, 6), (0x02, 0x33, 2), (0x04, 0x35, 2), (0x08, 0x37, 2), (0x01, 0x39, 2),
    ]
    /// DS §8.31: °C = TEMP_OUT / 333.87 + 21.
    public static let temperatureLSBPerDegree = 333.87, temperatureOffsetCelsius = 21.0
    /// DS §10.13: 4 mg per LSB.
    public static let wakeOnMotionGPerLSB = 0.004
    /// DS §8.6 INT1_LATCH__EN = 0: a 50 µs pulse.
    public static let interruptPulseSeconds = 50e-6

    /// DS Table 1–2: gyro rate noise 0.015 °/s/√Hz, accelerometer 230 µg/√Hz; ZRO variation
    /// over temperature ±0.05 °/s/°C.
    public static let noise = NoiseDensities(
        gyroDegreesPerSecondPerRootHz: 0.015, accelGPerRootHz: 230e-6, magnetometerRMSMicrotesla: 0,
        gyroZeroRateDriftDegreesPerSecondPerCelsius: 0.05)
}
