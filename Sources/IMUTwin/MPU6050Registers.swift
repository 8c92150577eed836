/// The MPU-6050's facts the emulator walks, written from InvenSense's documents (not from the
/// project's drivers, so the two are independent readings of the same pages):
/// - RM-MPU-6000A-00 "MPU-6000 and MPU-6050 Register Map and Descriptions", rev 4.2 (RM);
/// - PS-MPU-6000A-00 "MPU-6000/MPU-6050 Product Specification", rev 3.4 (PS).
public enum MPU6050Registers {
    // RM §3 (register map table) and §4.x (one section per register).
    public static let selfTestX: UInt8 = 0x0D          // RM §4.1
    public static let sampleRateDivider: UInt8 = 0x19  // RM §4.2 SMPLRT_DIV
    public static let configuration: UInt8 = 0x1A      // RM §4.3 CONFIG (EXT_SYNC_SET, DLPF_CFG)
    public static let gyroConfiguration: UInt8 = 0x1B  // RM §4.4 GYRO_CONFIG (FS_SEL bits 4:3)
    public static let accelConfiguration: UInt8 = 0x1C // RM §4.5 ACCEL_CONFIG (AFS_SEL 4:3, ACCEL_HPF 2:0)
    public static let motionThreshold: UInt8 = 0x1F    // MOT_THR (RM rev 3.2 §4.8; listed in rev 4.2's map)
    public static let motionDuration: UInt8 = 0x20     // MOT_DUR
    public static let fifoEnable: UInt8 = 0x23         // RM §4.6 FIFO_EN
    public static let interruptPinConfiguration: UInt8 = 0x37 // RM §4.15 INT_PIN_CFG
    public static let interruptEnable: UInt8 = 0x38    // RM §4.16 INT_ENABLE
    public static let interruptStatus: UInt8 = 0x3A    // RM §4.17 INT_STATUS
    public static let accelXHigh: UInt8 = 0x3B         // RM §4.17–4.19: 0x3B…0x48, 14 bytes
    public static let temperatureHigh: UInt8 = 0x41
    public static let gyroXHigh: UInt8 = 0x43
    public static let gyroZLow: UInt8 = 0x48
    public static let signalPathReset: UInt8 = 0x68    // RM §4.26
    public static let motionDetectControl: UInt8 = 0x69 // MOT_DETECT_CTRL
    public static let userControl: UInt8 = 0x6A        // RM §4.27 USER_CTRL
    public static let powerManagement1: UInt8 = 0x6B   // RM §4.28 PWR_MGMT_1
    public static let powerManagement2: UInt8 = 0x6C   // RM §4.29 PWR_MGMT_2
    public static let fifoCountHigh: UInt8 = 0x72      // RM §4.30
    public static let fifoCountLow: UInt8 = 0x73
    public static let fifoReadWrite: UInt8 = 0x74      // RM §4.31 FIFO_R_W
    public static let whoAmI: UInt8 = 0x75             // RM §4.32

    /// RM §3, note under the map: "The reset value is 0x00 for all registers other than
    /// Register 107 (PWR_MGMT_1): 0x40 [SLEEP set] and Register 117 (WHO_AM_I): 0x68." (The
    /// identity comes from IMUDrivers' ChipParts, with the other parts' values.)
    public static let powerOnDefaults: [UInt8: UInt8] = [powerManagement1: 0x40]

    /// Registers a write does not change (status, data, count, identity).
    public static let readOnly: Set<UInt8> = Set([interruptStatus, fifoCountHigh, fifoCountLow, whoAmI] + Array(0x3B...0x60))

    // Bits.
    public static let powerDeviceReset: UInt8 = 0x80, powerSleep: UInt8 = 0x40, powerCycle: UInt8 = 0x20
    public static let userFIFOEnable: UInt8 = 0x40, userFIFOReset: UInt8 = 0x04, userSignalConditionReset: UInt8 = 0x01
    public static let pinActiveLow: UInt8 = 0x80, pinOpenDrain: UInt8 = 0x40, pinLatch: UInt8 = 0x20, pinReadClears: UInt8 = 0x10
    /// INT_ENABLE / INT_STATUS bits (RM §4.16, §4.17).
    public static let motionInterrupt: UInt8 = 0x40, fifoOverflowInterrupt: UInt8 = 0x10, dataReadyInterrupt: UInt8 = 0x01

    /// RM §4.4: FS_SEL → range and sensitivity.
    public static let gyroFullScales: [(degreesPerSecond: Double, lsbPerDegreePerSecond: Double)] = [
        (250, 131), (500, 65.5), (1000, 32.8), (2000, 16.4),
    ]
    /// RM §4.5: AFS_SEL → range and sensitivity.
    public static let accelFullScales: [(g: Double, lsbPerG: Double)] = [
        (2, 16384), (4, 8192), (8, 4096), (16, 2048),
    ]

    /// RM §4.3, DLPF_CFG table: accel and gyro bandwidth, and the gyro output rate that the
    /// sample rate divider divides (8 kHz with the filter off: DLPF_CFG 0 and 7, else 1 kHz).
    public static let lowPassFilters: [(accelBandwidthHz: Double, gyroBandwidthHz: Double, gyroOutputRateHz: Double)] = [
        (260, 256, 8000), (184, 188, 1000), (94, 98, 1000), (44, 42, 1000),
        (21, 20, 1000), (10, 10, 1000), (5, 5, 1000), (260, 256, 8000),
    ]

    /// RM §4.29 LP_WAKE_CTRL: wake-up rate in CYCLE mode.
    public static let lowPowerWakeRatesHz: [Double] = [1.25, 5, 20, 40]

    /// RM §4.6 FIFO_EN and §4.31: "Data is written to the FIFO in order of register number":
    /// accel (ACCEL_FIFO_EN, 6 bytes from 0x3B), temperature (TEMP_FIFO_EN, 2 bytes from 0x41),
    /// gyro x, y, z (XG/YG/ZG_FIFO_EN, 2 bytes each from 0x43/0x45/0x47). Slave data is not emulated.
    public static let fifoSources: [(enableBit: UInt8, firstRegister: UInt8, byteCount: Int)] = [
        (0x08, 0x3B, 6), (0x80, 0x41, 2), (0x40, 0x43, 2), (0x20, 0x45, 2), (0x10, 0x47, 2),
    ]
    /// RM §4.31 (and PS §7.17): 1024 bytes.
    public static let fifoCapacityBytes = 1024

    /// ACCEL_HPF (ACCEL_CONFIG bits 2:0; described in RM rev 3.2 §4.5, greyed out in rev 4.2):
    /// 0 reset (the filter output settles to 0: motion detection sees nothing), 1…4 high-pass
    /// at 5 / 2.5 / 1.25 / 0.63 Hz, 7 hold (compares with the sample taken when set).
    public static let accelHighPassCutoffsHz: [UInt8: Double] = [1: 5, 2: 2.5, 3: 1.25, 4: 0.63]
    public static let accelHighPassReset: UInt8 = 0, accelHighPassHold: UInt8 = 7

    /// MOT_THR: 1 LSB = 2 mg; MOT_DUR: 1 LSB = 1 ms (RM rev 3.2 §4.8–4.9).
    public static let motionThresholdGPerLSB = 0.002
    public static let motionDurationSecondsPerLSB = 0.001

    /// RM §4.18: °C = TEMP_OUT / 340 + 36.53.
    public static let temperatureLSBPerDegree = 340.0
    public static let temperatureOffsetCelsius = 36.53

    /// RM §4.15 LATCH_INT_EN = 0: "the INT pin emits a 50 µs long pulse".
    public static let interruptPulseSeconds = 50e-6

    /// PS §6.1/6.2: gyro rate noise spectral density 0.005 °/s/√Hz, accel 400 µg/√Hz.
    /// PS §6.1 "ZRO Variation Over Temperature, −40 °C to +85 °C: ±20 °/s": 20 / 125 ≈ 0.16 °/s per °C.
    public static let noise = NoiseDensities(
        gyroDegreesPerSecondPerRootHz: 0.005, accelGPerRootHz: 400e-6, magnetometerRMSMicrotesla: 0,
        gyroZeroRateDriftDegreesPerSecondPerCelsius: 0.16)
}
