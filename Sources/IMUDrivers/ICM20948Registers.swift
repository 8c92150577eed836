/// ICM-20948 register facts, from TDK InvenSense "ICM-20948 Datasheet" (DS-000189 rev 1.3;
/// cited "DS §section"): §7 register map (four user banks), §8 bank 0, §10 bank 2, §3.1–3.2
/// sensor specifications. Registers are named by bank; REG_BANK_SEL sits at 0x7F in every bank.
enum ICM20948Registers {
    /// A register address inside a user bank.
    struct Banked: Sendable, Equatable {
        let bank: UInt8
        let address: UInt8
    }

    static let bankSelect: UInt8 = 0x7F            // DS §8.65 REG_BANK_SEL: USER_BANK in bits 5:4
    static func bankSelectValue(_ bank: UInt8) -> UInt8 { bank << 4 }

    // Bank 0 (DS §8): identity, power, interrupts, data, FIFO.
    static let whoAmI: UInt8 = 0x00                // DS §8.1 WHO_AM_I (value in `ChipParts`)
    static let userControl: UInt8 = 0x03           // DS §8.2 USER_CTRL: FIFO_EN 6, I2C_MST_EN 5
    static let lowPowerConfig: UInt8 = 0x05        // DS §8.3 LP_CONFIG: I2C_MST_CYCLE 6, ACCEL_CYCLE 5, GYRO_CYCLE 4
    static let powerManagement1: UInt8 = 0x06      // DS §8.4 PWR_MGMT_1: DEVICE_RESET 7, SLEEP 6, LP_EN 5, TEMP_DIS 3, CLKSEL 2:0
    static let powerManagement2: UInt8 = 0x07      // DS §8.5 PWR_MGMT_2: DISABLE_ACCEL 5:3, DISABLE_GYRO 2:0
    static let interruptPinConfig: UInt8 = 0x0F    // DS §8.6 INT_PIN_CFG: INT1_ACTL 7, INT1_LATCH__EN 5, BYPASS_EN 1
    static let interruptEnable: UInt8 = 0x10       // DS §8.7 INT_ENABLE: WOM_INT_EN 3
    static let interruptEnable1: UInt8 = 0x11      // DS §8.8 INT_ENABLE_1: RAW_DATA_0_RDY_EN 0
    static let interruptEnable2: UInt8 = 0x12      // DS §8.9 INT_ENABLE_2: FIFO_OVERFLOW_EN 4:0
    static let interruptStatus: UInt8 = 0x19       // DS §8.13 INT_STATUS: WOM_INT 3
    static let interruptStatus1: UInt8 = 0x1A      // DS §8.14 INT_STATUS_1: RAW_DATA_0_RDY_INT 0
    static let interruptStatus2: UInt8 = 0x1B      // DS §8.15 INT_STATUS_2: FIFO_OVERFLOW_INT 4:0
    static let accelXHigh: UInt8 = 0x2D            // DS §8.18–8.29: accel x,y,z then gyro x,y,z, big-endian
    static let fifoEnable2: UInt8 = 0x67           // DS §8.56 FIFO_EN_2: ACCEL 4, GYRO_Z 3, GYRO_Y 2, GYRO_X 1, TEMP 0
    static let fifoReset: UInt8 = 0x68             // DS §8.57 FIFO_RST: FIFO_RESET 4:0 (assert, then de-assert)
    static let fifoMode: UInt8 = 0x69              // DS §8.58 FIFO_MODE: 0 stream (oldest overwritten)
    static let fifoCountHigh: UInt8 = 0x70         // DS §8.59 FIFO_COUNTH: FIFO_CNT[12:8]; reading it latches both
    static let fifoReadWrite: UInt8 = 0x72         // DS §8.61 FIFO_R_W (a port: the address does not advance)

    // Bank 2 (DS §10): rates, ranges, filters, wake-on-motion.
    static let gyroRateDivider = Banked(bank: 2, address: 0x00)      // DS §10.1 GYRO_SMPLRT_DIV
    static let gyroConfig1 = Banked(bank: 2, address: 0x01)          // DS §10.2 GYRO_CONFIG_1: DLPFCFG 5:3, FS_SEL 2:1, FCHOICE 0
    static let accelRateDivider1 = Banked(bank: 2, address: 0x10)    // DS §10.10 ACCEL_SMPLRT_DIV_1: bits 11:8
    static let accelRateDivider2 = Banked(bank: 2, address: 0x11)    // DS §10.11 ACCEL_SMPLRT_DIV_2: bits 7:0
    static let accelIntelligence = Banked(bank: 2, address: 0x12)    // DS §10.12 ACCEL_INTEL_CTRL: EN 1, MODE_INT 0
    static let wakeOnMotionThreshold = Banked(bank: 2, address: 0x13) // DS §10.13 ACCEL_WOM_THR
    static let accelConfig = Banked(bank: 2, address: 0x14)          // DS §10.14 ACCEL_CONFIG: DLPFCFG 5:3, FS_SEL 2:1, FCHOICE 0

    // Bits.
    static let powerDeviceReset: UInt8 = 0x80
    static let powerSleep: UInt8 = 0x40
    /// CLKSEL = 1: the best clock available (the gyro's PLL when it runs), DS §8.4.
    static let clockAuto: UInt8 = 0x01
    /// PWR_MGMT_1 for the low-power watch: LP_EN, TEMP_DIS, CLKSEL = 1.
    static let powerLowPowerTemperatureOff: UInt8 = 0x29
    /// PWR_MGMT_2 DISABLE_GYRO: the three gyro axes off.
    static let gyrosOff: UInt8 = 0x07
    /// LP_CONFIG ACCEL_CYCLE: the accelerometer duty-cycled at ACCEL_SMPLRT_DIV's rate (DS §8.3).
    static let accelCycle: UInt8 = 0x20
    /// LP_CONFIG after reset (I2C_MST_CYCLE), DS §7.
    static let lowPowerConfigDefault: UInt8 = 0x40
    static let userFIFOEnable: UInt8 = 0x40
    static let bypassEnable: UInt8 = 0x02
    static let interruptLatchedActiveHigh: UInt8 = 0x20
    static let wakeOnMotionInterrupt: UInt8 = 0x08     // INT_ENABLE WOM_INT_EN / INT_STATUS WOM_INT
    static let rawDataReady: UInt8 = 0x01              // INT_ENABLE_1 / INT_STATUS_1
    static let fifoOverflowAll: UInt8 = 0x1F           // INT_ENABLE_2 / INT_STATUS_2 / FIFO_RST, all five FIFOs
    static let fifoAccelAndGyro: UInt8 = 0x1E          // FIFO_EN_2: accel + gyro x, y, z → 12 bytes a frame
    /// ACCEL_INTEL_CTRL: ACCEL_INTEL_EN | ACCEL_INTEL_MODE_INT (compare with the previous sample).
    static let accelIntelligenceCompare: UInt8 = 0x03

    static let fullScaleField: UInt8 = 0x06            // FS_SEL in GYRO_CONFIG_1 and ACCEL_CONFIG (bits 2:1)
    static let lowPassField: UInt8 = 0x38              // DLPFCFG in both (bits 5:3)
    static let filterChoice: UInt8 = 0x01              // FCHOICE: 1 = through the low-pass filter

    /// DS §10.2 GYRO_FS_SEL and Table 1: ±°/s and LSB per °/s.
    static let gyroScales: [FullScale] = [
        FullScale(code: 0, range: 250, sensitivity: 1 / 131.0), FullScale(code: 1, range: 500, sensitivity: 1 / 65.5),
        FullScale(code: 2, range: 1000, sensitivity: 1 / 32.8), FullScale(code: 3, range: 2000, sensitivity: 1 / 16.4),
    ]
    /// DS §10.14 ACCEL_FS_SEL and Table 2: ±g and LSB per g.
    static let accelScales: [FullScale] = [
        FullScale(code: 0, range: 2, sensitivity: 1 / 16384.0), FullScale(code: 1, range: 4, sensitivity: 1 / 8192.0),
        FullScale(code: 2, range: 8, sensitivity: 1 / 4096.0), FullScale(code: 3, range: 16, sensitivity: 1 / 2048.0),
    ]
    /// DS §10.1: with FCHOICE = 1 the gyro runs at 1.1 kHz / (1 + GYRO_SMPLRT_DIV).
    static let gyroBaseRateHz = 1100.0
    /// DS §10.11: the accelerometer at 1.125 kHz / (1 + ACCEL_SMPLRT_DIV[11:0]).
    static let accelBaseRateHz = 1125.0
    static let accelDividerMaximum = 4095
    /// The sample rates the gyro divider gives (the accelerometer's divider follows it).
    static let sampleRates: [DataRate] = (0...255).map { DataRate(code: UInt8($0), hertz: gyroBaseRateHz / Double(1 + $0)) }

    /// DS §10.2 Table 16 (GYRO_FCHOICE = 1): GYRO_DLPFCFG → 3 dB bandwidth (Hz). Code 7 (361 Hz)
    /// is never picked: it is wider than any rate the divider gives can carry.
    static let gyroLowPass: [LowPassSetting] = [
        LowPassSetting(code: 0, hertz: 196.6), LowPassSetting(code: 1, hertz: 151.8), LowPassSetting(code: 2, hertz: 119.5),
        LowPassSetting(code: 3, hertz: 51.2), LowPassSetting(code: 4, hertz: 23.9), LowPassSetting(code: 5, hertz: 11.6),
        LowPassSetting(code: 6, hertz: 5.7),
    ]
    /// DS §10.14 Table 18 (ACCEL_FCHOICE = 1): ACCEL_DLPFCFG → 3 dB bandwidth (Hz).
    static let accelLowPass: [LowPassSetting] = [
        LowPassSetting(code: 1, hertz: 246.0), LowPassSetting(code: 2, hertz: 111.4), LowPassSetting(code: 3, hertz: 50.4),
        LowPassSetting(code: 4, hertz: 23.9), LowPassSetting(code: 5, hertz: 11.5), LowPassSetting(code: 6, hertz: 5.7),
    ]

    /// DS §8.18–8.31: accel (6), gyro (6), temperature (2) from 0x2D, big-endian.
    static let sampleSet = SampleSetLayout(register: accelXHigh, length: 14, accelAt: 0, gyroAt: 6, temperatureAt: 12)
    /// FIFO frame with FIFO_EN_2 = fifoAccelAndGyro: accel then gyro, in register order.
    static let fifoSampleLength = 12
    /// DS §4.16: a 512-byte FIFO; FIFO_CNT is 13 bits.
    static let fifoCapacityBytes = 512
    static let fifoCountMask: UInt16 = 0x1FFF
    /// The row the shared FIFO drain walks: FIFO_COUNTH/L, FIFO_R_W (DS §8.59–8.61), overflow
    /// in INT_STATUS_2 FIFO_OVERFLOW_INT (DS §8.15).
    static let fifo = InvenSenseFIFO(
        countRegister: fifoCountHigh, countMask: fifoCountMask, port: fifoReadWrite, capacityBytes: fifoCapacityBytes,
        overflowStatus: interruptStatus2, overflowBit: fifoOverflowAll)
    /// DS §8.31 TEMP_OUT: °C = (TEMP_OUT − RoomTemp_Offset) / 333.87 + 21, offset 0.
    static let temperatureLSBPerDegree = 333.87
    static let temperatureAtZeroCelsius = 21.0
    static func temperatureCelsius(_ raw: Int16) -> Double { Double(raw) / temperatureLSBPerDegree + temperatureAtZeroCelsius }
    /// DS §10.13 ACCEL_WOM_THR: 4 mg per LSB (0–1020 mg).
    static let wakeOnMotionGPerLSB = 0.004

    /// The accelerometer divider whose rate is nearest `hertz`.
    static func accelDivider(for hertz: Double) -> Int {
        min(accelDividerMaximum, max(0, Int((accelBaseRateHz / max(hertz, 0.01) - 1).rounded())))
    }

    static func accelRateHz(divider: Int) -> Double { accelBaseRateHz / Double(1 + divider) }
}
