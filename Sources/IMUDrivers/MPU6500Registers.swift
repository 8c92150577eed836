/// Where the MPU-6500 family's register map differs from the MPU-6050's (`MPU6050Registers`
/// holds what they share: the data, FIFO, interrupt and power registers, the full scales).
/// From InvenSense "MPU-9250 Register Map and Descriptions" (RM-MPU-9250A-00 rev 1.4/1.6, cited
/// "RM9 §section"; the MPU-6500's map RM-MPU-6500A-00 has the same accel/gyro registers) and
/// the "MPU-9250 Product Specification" (PS-MPU-9250A-01 rev 1.0, "PS9 §section").
enum MPU6500Registers {
    static let accelConfig2: UInt8 = 0x1D            // RM9 §4.8 ACCEL_CONFIG 2: ACCEL_FCHOICE_B bit 3, A_DLPF_CFG 2:0
    static let lowPowerAccelRate: UInt8 = 0x1E       // RM9 §4.9 LP_ACCEL_ODR: Lposc_clksel 3:0
    static let wakeOnMotionThreshold: UInt8 = 0x1F   // RM9 Register 31 WOM_THR (the 6050's MOT_THR address)
    static let motionDetectControl: UInt8 = 0x69     // RM9 Register 105 MOT_DETECT_CTRL: ACCEL_INTEL_EN 7, ACCEL_INTEL_MODE 6

    /// ACCEL_INTEL_EN | ACCEL_INTEL_MODE (compare each sample with the previous one).
    static let accelIntelligenceCompare: UInt8 = 0xC0
    /// INT_PIN_CFG BYPASS_EN (RM9 Register 55): the auxiliary I²C pins joined to the host bus, so the
    /// AK8963 answers at 0x0C (PS9 §4.11 "pass-through mode").
    static let bypassEnable: UInt8 = 0x02
    /// ACCEL_CONFIG 2 for the wake-on-motion watch (PS9 §6.1 flowchart): ACCEL_FCHOICE_B = 1,
    /// A_DLPF_CFG = 1.
    static let accelConfig2WakeOnMotion: UInt8 = 0x09

    /// RM9 §4.5 (CONFIG, FCHOICE_B = 00): DLPF_CFG → gyro bandwidth (Hz), 1 kHz gyro rate.
    static let gyroLowPass: [LowPassSetting] = [
        LowPassSetting(code: 1, hertz: 184), LowPassSetting(code: 2, hertz: 92), LowPassSetting(code: 3, hertz: 41),
        LowPassSetting(code: 4, hertz: 20), LowPassSetting(code: 5, hertz: 10), LowPassSetting(code: 6, hertz: 5),
    ]
    /// RM9 §4.8 (ACCEL_FCHOICE_B = 0): A_DLPF_CFG → accelerometer bandwidth (Hz), 1 kHz rate.
    static let accelLowPass: [LowPassSetting] = [
        LowPassSetting(code: 1, hertz: 218.1), LowPassSetting(code: 2, hertz: 99), LowPassSetting(code: 3, hertz: 44.8),
        LowPassSetting(code: 4, hertz: 21.2), LowPassSetting(code: 5, hertz: 10.2), LowPassSetting(code: 6, hertz: 5.05),
    ]
    /// RM9 §4.9: Lposc_clksel → the low-power accelerometer's wake-up rate (Hz).
    static let lowPowerAccelRates: [DataRate] = [
        DataRate(code: 0, hertz: 0.24), DataRate(code: 1, hertz: 0.49), DataRate(code: 2, hertz: 0.98),
        DataRate(code: 3, hertz: 1.95), DataRate(code: 4, hertz: 3.91), DataRate(code: 5, hertz: 7.81),
        DataRate(code: 6, hertz: 15.63), DataRate(code: 7, hertz: 31.25), DataRate(code: 8, hertz: 62.50),
        DataRate(code: 9, hertz: 125), DataRate(code: 10, hertz: 250), DataRate(code: 11, hertz: 500),
    ]
    /// PS9 §3.2 "Intelligence Function Increment": WOM_THR is 4 mg per LSB (0–1020 mg).
    static let wakeOnMotionGPerLSB = 0.004
    /// PS9 §4.17: a 512-byte FIFO; RM9 Table 1: FIFO_COUNTH holds FIFO_CNT[12:8].
    static let fifoCapacityBytes = 512
    static let fifoCountMask: UInt16 = 0x1FFF
    /// RM9 Registers 65–66 TEMP_OUT: °C = TEMP_OUT / 333.87 + 21 (PS9 §3.4: 333.87 LSB/°C, 0 LSB at 21 °C).
    static let temperatureLSBPerDegree = 333.87
    static let temperatureAtZeroCelsius = 21.0
}

/// One setting of a digital low-pass filter: the register code and its bandwidth.
struct LowPassSetting: Sendable {
    let code: UInt8
    let hertz: Double
}

extension Array where Element == LowPassSetting {
    /// The widest bandwidth at or below half of `rateHz` (anti-aliasing), else the narrowest.
    func forSampleRate(_ rateHz: Double) -> LowPassSetting {
        first { $0.hertz <= rateHz / 2 } ?? last!
    }
}
