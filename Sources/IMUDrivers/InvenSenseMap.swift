/// Where the MPU-6050's register map and the MPU-6500 family's differ, as data the driver
/// walks (registers and tables in `MPU6050Registers` and `MPU6500Registers`).
struct InvenSenseMap: Sendable {
    let model: ChipModel
    /// CONFIG DLPF_CFG → gyro bandwidth (1 kHz gyro rate). On the MPU-6050 it filters the
    /// accelerometer too.
    let gyroLowPass: [LowPassSetting]
    /// ACCEL_CONFIG 2 A_DLPF_CFG (the 6500 map's own accelerometer filter); nil on the MPU-6050.
    let accelLowPass: [LowPassSetting]?
    /// FIFO_COUNT (its bits that count), FIFO_R_W, the size, INT_STATUS FIFO_OFLOW_INT (RM §58,
    /// §114–116; the 6500 map's 13-bit count and 512 bytes).
    let fifo: InvenSenseFIFO
    let temperatureLSBPerDegree: Double
    let temperatureAtZeroCelsius: Double
    let motion: MotionDetection

    func temperatureCelsius(_ raw: Int16) -> Double {
        Double(raw) / temperatureLSBPerDegree + temperatureAtZeroCelsius
    }

    static let mpu6050 = InvenSenseMap(
        model: .mpu6050,
        gyroLowPass: MPU6050Registers.lowPassBandwidths, accelLowPass: nil,
        fifo: fifo(capacityBytes: MPU6050Registers.fifoCapacityBytes, countMask: 0xFFFF),
        temperatureLSBPerDegree: MPU6050Registers.temperatureLSBPerDegree,
        temperatureAtZeroCelsius: MPU6050Registers.temperatureAtZeroCelsius,
        motion: .motionDetection)

    private static func fifo(capacityBytes: Int, countMask: UInt16) -> InvenSenseFIFO {
        typealias R = MPU6050Registers
        return InvenSenseFIFO(
            countRegister: R.fifoCountHigh, countMask: countMask, port: R.fifoReadWrite, capacityBytes: capacityBytes,
            overflowStatus: R.interruptStatus, overflowBit: R.interruptFIFOOverflow)
    }

    static func sixtyFiveHundred(_ model: ChipModel) -> InvenSenseMap {
        InvenSenseMap(
            model: model,
            gyroLowPass: MPU6500Registers.gyroLowPass, accelLowPass: MPU6500Registers.accelLowPass,
            fifo: fifo(capacityBytes: MPU6500Registers.fifoCapacityBytes, countMask: MPU6500Registers.fifoCountMask),
            temperatureLSBPerDegree: MPU6500Registers.temperatureLSBPerDegree,
            temperatureAtZeroCelsius: MPU6500Registers.temperatureAtZeroCelsius,
            motion: .wakeOnMotion)
    }

    /// The map of an InvenSense `model` (the MPU-6050's for any other).
    static func of(_ model: ChipModel) -> InvenSenseMap {
        model == .mpu6050 ? .mpu6050 : sixtyFiveHundred(model)
    }
}

/// The two motion detectors of the family.
enum MotionDetection: Sendable {
    /// MPU-6050: MOT_THR (2 mg/LSB) and MOT_DUR (1 ms/LSB) on the acceleration after the
    /// ACCEL_HPF high-pass; in CYCLE mode the chip wakes at LP_WAKE_CTRL's rate (RM §108).
    case motionDetection
    /// MPU-6500 map: wake-on-motion, WOM_THR (4 mg/LSB) on the difference from the previous
    /// sample, no duration (one sample over the threshold raises WOM_INT); in CYCLE mode the
    /// accelerometer wakes at LP_ACCEL_ODR's rate (PS9 §6.1, RM9 §4.9–4.10).
    case wakeOnMotion

    /// Sets the threshold (and duration) and the detector's filter.
    func arm(_ chip: InvenSenseIMU, thresholdG: Double, durationMilliseconds: Int, lowPower: Bool) throws(IMUDriverError) {
        typealias R = MPU6050Registers
        switch self {
        case .motionDetection:
            let threshold = min(255, max(1, Int((thresholdG / R.motionThresholdGPerLSB).rounded())))
            try chip.write(R.motionThreshold, UInt8(threshold))
            try chip.write(R.motionDuration, UInt8(min(255, max(1, durationMilliseconds))))
            // 0.63 Hz for the low-power watch (a hand's shake passes almost whole, gravity and
            // slow turns do not), 5 Hz while measuring.
            try chip.update(R.accelHighPass, to: lowPower ? R.accelHighPass063Hz : R.accelHighPass5Hz)
        case .wakeOnMotion:
            let threshold = min(255, max(1, Int((thresholdG / MPU6500Registers.wakeOnMotionGPerLSB).rounded())))
            if lowPower {
                // PS9 §6.1 step 2: the accelerometer at 184 Hz bandwidth for the watch.
                try chip.write(MPU6500Registers.accelConfig2, MPU6500Registers.accelConfig2WakeOnMotion)
            }
            try chip.write(MPU6500Registers.motionDetectControl, MPU6500Registers.accelIntelligenceCompare)
            try chip.write(MPU6500Registers.wakeOnMotionThreshold, UInt8(threshold))
        }
    }

    /// The gyros in standby and the low-power wake-up rate; returns that rate (Hz).
    func enterCycle(_ chip: InvenSenseIMU, rateHz: Double) throws(IMUDriverError) -> Double {
        typealias R = MPU6050Registers
        switch self {
        case .motionDetection:
            let wake = R.lowPowerWakeRates.nearest(rateHz)
            try chip.write(R.powerManagement2, R.lowPowerWakeRate.replacing(wake.code, in: R.standbyGyros))
            return wake.hertz
        case .wakeOnMotion:
            // PWR_MGMT_2 DIS_XG/YG/ZG are the 6050's STBY_xG bits (2:0); the rate is its own register.
            let wake = MPU6500Registers.lowPowerAccelRates.nearest(rateHz)
            try chip.write(R.powerManagement2, R.standbyGyros)
            try chip.write(MPU6500Registers.lowPowerAccelRate, wake.code)
            return wake.hertz
        }
    }

    /// Back to measuring: the detector off, the accelerometer filter as configured.
    func disarm(_ chip: InvenSenseIMU) throws(IMUDriverError) {
        switch self {
        case .motionDetection:
            break
        case .wakeOnMotion:
            try chip.write(MPU6500Registers.motionDetectControl, 0)
            try chip.write(MPU6500Registers.accelConfig2, chip.configuredAccelConfig2)
        }
    }
}
