/// The MPU-6500 family's facts the emulator walks where they differ from the MPU-6050's
/// (`MPU6050Registers`), written from InvenSense's documents, not from the drivers:
/// - RM-MPU-9250A-00 "MPU-9250 Register Map and Descriptions" rev 1.4 (RM9; its accel/gyro
///   registers are the MPU-6500's, RM-MPU-6500A-00);
/// - PS-MPU-9250A-01 "MPU-9250 Product Specification" rev 1.0 (PS9).
public enum MPU6500Registers {
    public static let accelConfiguration2: UInt8 = 0x1D  // RM9 §4.8 ACCEL_CONFIG 2
    public static let lowPowerAccelRate: UInt8 = 0x1E    // RM9 §4.9 LP_ACCEL_ODR
    public static let wakeOnMotionThreshold: UInt8 = 0x1F // RM9 Register 31 WOM_THR
    public static let motionDetectControl: UInt8 = 0x69  // RM9 Register 105 MOT_DETECT_CTRL

    /// RM9 Table 1 note: "The reset value is 0x00 for all registers other than Register 107
    /// (0x01) Power Management 1 and Register 117 WHO_AM_I": the part wakes up running.
    public static let powerOnDefaults: [UInt8: UInt8] = [MPU6050Registers.powerManagement1: 0x01]

    /// INT_PIN_CFG BYPASS_EN (RM9 Register 55) and USER_CTRL I2C_MST_EN (Register 106): the
    /// AK8963 is on the host bus when the bypass is on and the I²C master off.
    public static let pinBypass: UInt8 = 0x02, userI2CMaster: UInt8 = 0x20
    /// MOT_DETECT_CTRL ACCEL_INTEL_EN (7) and ACCEL_INTEL_MODE (6: compare with the previous sample).
    public static let intelligenceEnable: UInt8 = 0x80, intelligenceCompare: UInt8 = 0x40

    /// RM9 §4.5 CONFIG (FCHOICE_B = 00): DLPF_CFG → gyro bandwidth and the rate the divider
    /// divides (0 and 7: 8 kHz). The accelerometer has its own filter (below).
    public static let gyroLowPassFilters: [(gyroBandwidthHz: Double, gyroOutputRateHz: Double)] = [
        (250, 8000), (184, 1000), (92, 1000), (41, 1000), (20, 1000), (10, 1000), (5, 1000), (3600, 8000),
    ]
    /// RM9 §4.8 ACCEL_CONFIG 2 A_DLPF_CFG → accelerometer bandwidth (ACCEL_FCHOICE_B = 0);
    /// with ACCEL_FCHOICE_B (bit 3) set, 1.13 kHz.
    public static let accelLowPassHz: [Double] = [218.1, 218.1, 99, 44.8, 21.2, 10.2, 5.05, 420]
    public static let accelFilterBypassHz = 1130.0
    /// RM9 §4.9 Lposc_clksel → the accelerometer's wake-up rate in CYCLE mode (12–15 reserved).
    public static let lowPowerAccelRatesHz: [Double] = [0.24, 0.49, 0.98, 1.95, 3.91, 7.81, 15.63, 31.25, 62.5, 125, 250, 500]
    /// PS9 §3.2: WOM_THR is 4 mg per LSB.
    public static let wakeOnMotionGPerLSB = 0.004
    /// PS9 §4.17: 512-byte FIFO; RM9 Table 1: FIFO_COUNTH carries FIFO_CNT[12:8].
    public static let fifoCapacityBytes = 512
    /// RM9 TEMP_OUT: °C = TEMP_OUT / 333.87 + 21 (PS9 §3.4).
    public static let temperatureLSBPerDegree = 333.87
    public static let temperatureOffsetCelsius = 21.0
    /// PS9 §3.1 and §3.2: gyro 0.01 °/s/√Hz, accelerometer 300 µg/√Hz.
    public static let noise = NoiseDensities(
        gyroDegreesPerSecondPerRootHz: 0.01, accelGPerRootHz: 300e-6, magnetometerRMSMicrotesla: 0)
}

/// Which of the two register maps an `InvenSenseEmulator` follows.
public enum InvenSenseMapKind: Sendable {
    /// MPU-6050 (RM-MPU-6000A): one DLPF for both sensors, MOT_THR/MOT_DUR on ACCEL_HPF,
    /// LP_WAKE_CTRL, a 1024-byte FIFO, asleep at power-on.
    case mpu6050
    /// MPU-6500, MPU-9250 (RM9): ACCEL_CONFIG 2, wake-on-motion, LP_ACCEL_ODR, a 512-byte FIFO
    /// with a 13-bit count, running at power-on.
    case mpu6500
}
