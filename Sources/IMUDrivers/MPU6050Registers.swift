/// MPU-6050 register facts, from InvenSense "MPU-6000 and MPU-6050 Register Map and
/// Descriptions" (RM-MPU-6000A-00, rev 4.2; cited as "RM §register") and the Product
/// Specification (PS-MPU-6000A-00, rev 3.4; "PS §section").
enum MPU6050Registers {
    static let sampleRateDivider: UInt8 = 0x19      // RM §25 SMPLRT_DIV
    static let config: UInt8 = 0x1A                 // RM §26 CONFIG (DLPF_CFG in bits 2:0)
    static let gyroConfig: UInt8 = 0x1B             // RM §27 GYRO_CONFIG (FS_SEL in bits 4:3)
    static let accelConfig: UInt8 = 0x1C            // RM §28 ACCEL_CONFIG (AFS_SEL in bits 4:3)
    static let motionThreshold: UInt8 = 0x1F        // RM §31 MOT_THR
    static let motionDuration: UInt8 = 0x20         // MOT_DUR (rev 3.x of the map; 1 ms/LSB)
    static let fifoEnable: UInt8 = 0x23             // RM §35 FIFO_EN
    static let interruptPinConfig: UInt8 = 0x37     // RM §55 INT_PIN_CFG
    static let interruptEnable: UInt8 = 0x38        // RM §56 INT_ENABLE
    static let interruptStatus: UInt8 = 0x3A        // RM §58 INT_STATUS (cleared by reading)
    static let accelXHigh: UInt8 = 0x3B             // RM §59–72: accel xyz, temp, gyro xyz
    static let userControl: UInt8 = 0x6A            // RM §106 USER_CTRL
    static let powerManagement1: UInt8 = 0x6B       // RM §107 PWR_MGMT_1
    static let powerManagement2: UInt8 = 0x6C       // RM §108 PWR_MGMT_2
    static let fifoCountHigh: UInt8 = 0x72          // RM §114–115 FIFO_COUNT (big-endian)
    static let fifoReadWrite: UInt8 = 0x74          // RM §116 FIFO_R_W (the port; does not advance)
    static let whoAmI: UInt8 = 0x75                 // RM §117 WHO_AM_I (values in `ChipParts`; AD0 not reflected)

    // Bits.
    static let powerDeviceReset: UInt8 = 0x80       // PWR_MGMT_1 DEVICE_RESET
    static let powerSleep: UInt8 = 0x40             // PWR_MGMT_1 SLEEP (set at power-up)
    static let clockGyroX: UInt8 = 0x01             // PWR_MGMT_1 CLKSEL=1: PLL on gyro X (PS §6.4 recommends it)
    /// PWR_MGMT_1 for the low-power accelerometer mode (RM §107–108): CYCLE, TEMP_DIS, CLKSEL = 0
    /// (the internal oscillator: the gyro whose PLL is the usual clock is in standby).
    static let powerCycleTemperatureOff: UInt8 = 0x28
    /// PWR_MGMT_2 STBY_XG, STBY_YG, STBY_ZG: the gyroscopes in standby (RM §108).
    static let standbyGyros: UInt8 = 0x07
    /// PWR_MGMT_2 LP_WAKE_CTRL (bits 7:6): how often the chip wakes in CYCLE mode (RM §108).
    static let lowPowerWakeRate = RegisterField(register: powerManagement2, mask: 0xC0)
    static let lowPowerWakeRates: [DataRate] = [
        DataRate(code: 0, hertz: 1.25), DataRate(code: 1, hertz: 5), DataRate(code: 2, hertz: 20), DataRate(code: 3, hertz: 40),
    ]
    static let userFIFOEnable: UInt8 = 0x40         // USER_CTRL FIFO_EN
    static let userFIFOReset: UInt8 = 0x04          // USER_CTRL FIFO_RESET
    static let fifoAccelAndGyro: UInt8 = 0x78       // FIFO_EN: XG, YG, ZG, ACCEL → 12 bytes a sample
    static let interruptLatchedActiveHigh: UInt8 = 0x20   // INT_PIN_CFG: LATCH_INT_EN, push-pull, active high
    static let interruptMotion: UInt8 = 0x40        // INT_ENABLE/INT_STATUS MOT
    static let interruptFIFOOverflow: UInt8 = 0x10  // INT_ENABLE/INT_STATUS FIFO_OFLOW
    static let interruptDataReady: UInt8 = 0x01     // INT_ENABLE/INT_STATUS DATA_RDY

    static let gyroFullScale = RegisterField(register: gyroConfig, mask: 0x18)
    /// ACCEL_CONFIG ACCEL_HPF (bits 2:0, rev 3.2 of the map): the high-pass filter motion
    /// detection compares against MOT_THR; 0 (reset) would never see motion. 1 = 5 Hz.
    static let accelHighPass = RegisterField(register: accelConfig, mask: 0x07)
    static let accelHighPass5Hz: UInt8 = 1
    /// ACCEL_HPF = 4: 0.63 Hz, for the low-power watch (a hand's shake passes almost whole,
    /// gravity and slow turns do not).
    static let accelHighPass063Hz: UInt8 = 4
    static let accelFullScale = RegisterField(register: accelConfig, mask: 0x18)
    static let lowPassFilter = RegisterField(register: config, mask: 0x07)

    /// RM §27: FS_SEL → ±°/s and LSB per °/s (PS §6.1: 131, 65.5, 32.8, 16.4 LSB/(°/s)).
    static let gyroScales: [FullScale] = [
        FullScale(code: 0, range: 250, sensitivity: 1 / 131.0),
        FullScale(code: 1, range: 500, sensitivity: 1 / 65.5),
        FullScale(code: 2, range: 1000, sensitivity: 1 / 32.8),
        FullScale(code: 3, range: 2000, sensitivity: 1 / 16.4),
    ]

    /// RM §28: AFS_SEL → ±g (PS §6.2: 16384, 8192, 4096, 2048 LSB/g).
    static let accelScales: [FullScale] = [
        FullScale(code: 0, range: 2, sensitivity: 1 / 16384.0),
        FullScale(code: 1, range: 4, sensitivity: 1 / 8192.0),
        FullScale(code: 2, range: 8, sensitivity: 1 / 4096.0),
        FullScale(code: 3, range: 16, sensitivity: 1 / 2048.0),
    ]

    /// RM §26: DLPF_CFG → gyro bandwidth (Hz); with the filter on, the gyro output rate is 1 kHz.
    /// (DLPF_CFG 0 is the 256 Hz / 8 kHz setting, which we never pick: the FIFO could not keep up.)
    static let lowPassBandwidths: [LowPassSetting] = [
        LowPassSetting(code: 1, hertz: 188), LowPassSetting(code: 2, hertz: 98), LowPassSetting(code: 3, hertz: 42),
        LowPassSetting(code: 4, hertz: 20), LowPassSetting(code: 5, hertz: 10), LowPassSetting(code: 6, hertz: 5),
    ]

    /// Gyro output rate with the DLPF on (RM §25).
    static let filteredGyroRateHz = 1000.0

    /// The sample rates SMPLRT_DIV gives with the DLPF on: 1 kHz / (1 + divider).
    static let sampleRates: [DataRate] = (0...255).map { DataRate(code: UInt8($0), hertz: filteredGyroRateHz / Double(1 + $0)) }

    /// RM §59–72: accel x,y,z (6), temp (2), gyro x,y,z (6), big-endian.
    static let sampleSet = SampleSetLayout(register: accelXHigh, length: 14, accelAt: 0, gyroAt: 8, temperatureAt: 6)
    /// FIFO sample with FIFO_EN = fifoAccelAndGyro: accel then gyro, in register order (RM §35).
    static let fifoSampleLength = 12
    /// PS §7.17: 1024-byte FIFO.
    static let fifoCapacityBytes = 1024

    /// RM §65–66: °C = TEMP_OUT / 340 + 36.53.
    static let temperatureLSBPerDegree = 340.0
    static let temperatureAtZeroCelsius = 36.53

    /// RM §31: MOT_THR is 2 mg per LSB (rev 3.2); MOT_DUR 1 ms per LSB.
    static let motionThresholdGPerLSB = 0.002
}
