import IMUBus
import IMUGeometry

/// Driver for the InvenSense MPU-6050 (accelerometer, gyroscope, thermometer; no magnetometer).
///
/// One sample set is one 14-byte burst from ACCEL_XOUT_H; the FIFO is drained with one
/// FIFO_COUNT read and one burst from the FIFO port.
public final class MPU6050: IMUDriver {
    public let bus: any I2CBus
    public let address: UInt8
    public let clock: any MonotonicClock
    public let model = ChipModel.mpu6050
    public let capabilities = ChipCapabilities(
        accelerometer: true, gyroscope: true, magnetometer: false, thermometer: true,
        fifoCapacity: MPU6050Registers.fifoCapacityBytes / MPU6050Registers.fifoSampleLength,
        motionInterrupt: true, dataReadyInterrupt: true)
    public private(set) var configuration: IMUConfiguration

    private typealias R = MPU6050Registers
    /// Conversion factors precomputed from the configuration, so decoding is multiplies only.
    private var accelGPerLSB = 0.0
    private var gyroRadiansPerSecondPerLSB = 0.0
    private var fifo = FIFOBookkeeping()
    /// FIFO bytes, kept between drains so the per-sample path does not allocate.
    private let fifoBuffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: MPU6050Registers.fifoCapacityBytes, alignment: 8)

    public init(bus: any I2CBus, address: UInt8 = 0x68, clock: any MonotonicClock) {
        self.bus = bus
        self.address = address
        self.clock = clock
        configuration = IMUConfiguration(
            accelerometerScale: R.accelScales[0], gyroscopeScale: R.gyroScales[0],
            sampleRate: R.sampleRates[0], lowPassBandwidthHz: nil)
        applyConversion()
    }

    deinit { fifoBuffer.deallocate() }

    /// Checks WHO_AM_I, naming MPU-6500/9250-family parts instead of misreading them.
    public func verifyIdentity() throws(IMUDriverError) {
        let found = try bus.read(address, R.whoAmI)
        guard found == R.whoAmIValue else {
            throw .wrongChip(
                bus: bus.name, address: address, expected: .mpu6050, register: R.whoAmI, found: found,
                expectedValue: R.whoAmIValue,
                identifiedAs: KnownParts.name(register: R.whoAmI, value: found, at: address))
        }
    }

    public func configure(_ settings: IMUSettings) throws(IMUDriverError) {
        try verifyIdentity()
        // RM §107: reset, then wake with the gyro-X PLL as clock (more stable than the 8 MHz oscillator).
        try bus.write(address, R.powerManagement1, R.powerDeviceReset)
        clock.sleep(seconds: 0.1)  // PS §6.4: registers are back at defaults after up to 100 ms
        try bus.write(address, R.powerManagement1, R.clockGyroX)

        let accel = R.accelScales.covering(settings.accelerometerRangeG)
        let gyro = R.gyroScales.covering(settings.gyroscopeRangeDegreesPerSecond)
        let rate = R.sampleRates.nearest(settings.sampleRateHz)
        // Anti-aliasing: the widest DLPF bandwidth at or below half the sample rate.
        let filter = R.lowPassBandwidths.first { $0.gyroHz <= rate.hertz / 2 } ?? R.lowPassBandwidths.last!

        try bus.write(address, R.config, R.lowPassFilter.replacing(filter.code, in: 0))
        try bus.write(address, R.sampleRateDivider, rate.code)
        try bus.write(address, R.gyroConfig, R.gyroFullScale.replacing(gyro.code, in: 0))
        try bus.write(address, R.accelConfig, R.accelFullScale.replacing(accel.code, in: 0))

        configuration = IMUConfiguration(
            accelerometerScale: accel, gyroscopeScale: gyro, sampleRate: rate,
            lowPassBandwidthHz: filter.gyroHz)
        applyConversion()
        fifo.start(at: nil)
        waitForFirstSample()
    }

    /// Until the first conversion the output registers hold zeros, which must not pass for a
    /// reading: wait for the gyro to start (PS §6.1: 30 ms) and two sample periods.
    private func waitForFirstSample() {
        clock.sleep(seconds: 0.03 + 2 / configuration.sampleRate.hertz)
    }

    private func applyConversion() {
        accelGPerLSB = configuration.accelerometerScale.sensitivity
        gyroRadiansPerSecondPerLSB = configuration.gyroscopeScale.sensitivity * .pi / 180
    }

    public func readSample() throws(IMUDriverError) -> MotionSample {
        var bytes: (UInt64, UInt64) = (0, 0)  // 16 bytes of stack for the 14-byte burst
        return try withUnsafeMutableBytes(of: &bytes) { (raw) throws(IMUDriverError) -> MotionSample in
            let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[0..<R.sampleSetLength])
            try bus.burst(address, R.accelXHigh, into: buffer)
            let timestamp = clock.now
            let data = UnsafeRawBufferPointer(buffer)
            // All fourteen bytes zero is a chip that is not measuring (asleep at its power-on
            // defaults after a reset), never a reading: gravity alone makes one axis non-zero.
            guard data.contains(where: { $0 != 0 }) else { throw .notMeasuring(bus: bus.name, address: address) }
            guard !RegisterBytes.allOnes(data) else { throw .implausible(bus: bus.name, address: address, what: "all 0xFF") }
            var sample = decode(data, accelAt: 0, gyroAt: 8, timestamp: timestamp)
            sample.temperature = R.temperatureCelsius(RegisterBytes.bigEndianInt16(data, at: 6))
            return sample
        }
    }

    /// Raw counts → Core Motion units. The chip reports specific force (+1 g up when lying
    /// still); Core Motion reports gravity pointing down, hence the minus sign, applied here once.
    @inline(__always)
    private func decode(_ data: UnsafeRawBufferPointer, accelAt a: Int, gyroAt g: Int, timestamp: Double) -> MotionSample {
        let ax = Double(RegisterBytes.bigEndianInt16(data, at: a))
        let ay = Double(RegisterBytes.bigEndianInt16(data, at: a + 2))
        let az = Double(RegisterBytes.bigEndianInt16(data, at: a + 4))
        let gx = Double(RegisterBytes.bigEndianInt16(data, at: g))
        let gy = Double(RegisterBytes.bigEndianInt16(data, at: g + 2))
        let gz = Double(RegisterBytes.bigEndianInt16(data, at: g + 4))
        return MotionSample(
            timestamp: timestamp,
            acceleration: Vector3(ax, ay, az) * -accelGPerLSB,
            rotationRate: Vector3(gx, gy, gz) * gyroRadiansPerSecondPerLSB)
    }

    // MARK: FIFO

    public func startFIFO() throws(IMUDriverError) {
        try bus.write(address, R.userControl, 0)
        try bus.write(address, R.fifoEnable, R.fifoAccelAndGyro)
        try bus.write(address, R.userControl, R.userFIFOReset)
        try bus.write(address, R.userControl, R.userFIFOEnable)
        fifo.start(at: clock.now)
    }

    public func stopFIFO() throws(IMUDriverError) {
        try bus.write(address, R.fifoEnable, 0)
        try bus.write(address, R.userControl, R.userFIFOReset)
        fifo.start(at: nil)
    }

    public func drainFIFO(into samples: inout [MotionSample]) throws(IMUDriverError) -> FIFOBatch {
        var countBytes: UInt16 = 0
        try withUnsafeMutableBytes(of: &countBytes) { (buffer) throws(IMUDriverError) in
            try bus.burst(address, R.fifoCountHigh, into: buffer)
        }
        let now = clock.now
        let byteCount = Int(UInt16(bigEndian: countBytes))
        // FIFO_COUNT (RM §114–115) never exceeds the 1024 bytes the FIFO holds: more is not the chip talking.
        guard byteCount <= R.fifoCapacityBytes else {
            throw .implausible(bus: bus.name, address: address, what: "a FIFO count of \(byteCount) bytes (it holds \(R.fifoCapacityBytes))")
        }
        var transactions = 1
        let period = 1 / configuration.sampleRate.hertz

        // A full FIFO may have overflowed (RM §116: the oldest bytes are overwritten, so the
        // 12-byte frames no longer line up): confirm with INT_STATUS, then start over.
        if byteCount + R.fifoSampleLength > R.fifoCapacityBytes {
            let status = try bus.read(address, R.interruptStatus)
            transactions += 1
            if status & R.interruptFIFOOverflow != 0 || byteCount >= R.fifoCapacityBytes {
                try bus.write(address, R.userControl, R.userFIFOEnable | R.userFIFOReset)
                transactions += 1
                let lost = fifo.overflowed(at: now, period: period, kept: 0)
                return FIFOBatch(count: 0, dropped: max(lost, R.fifoCapacityBytes / R.fifoSampleLength), transactions: transactions)
            }
        }

        let count = byteCount / R.fifoSampleLength
        guard count > 0 else {
            fifo.drainedNothing(at: now)
            return FIFOBatch(count: 0, dropped: 0, transactions: transactions)
        }
        let length = count * R.fifoSampleLength
        do {
            try bus.readFIFO(address, port: R.fifoReadWrite, into: UnsafeMutableRawBufferPointer(rebasing: fifoBuffer[0..<length]))
        } catch {
            throw .bus(error)
        }
        transactions += 1

        let timestamps = fifo.drained(count, at: now, period: period)
        samples.reserveCapacity(samples.count + count)
        let data = UnsafeRawBufferPointer(fifoBuffer)
        for i in 0..<count where RegisterBytes.allOnes(UnsafeRawBufferPointer(rebasing: data[(i * R.fifoSampleLength)..<((i + 1) * R.fifoSampleLength)])) {
            throw .implausible(bus: bus.name, address: address, what: "a FIFO frame of all 0xFF")
        }
        for i in 0..<count {
            let base = i * R.fifoSampleLength
            samples.append(decode(data, accelAt: base, gyroAt: base + 6, timestamp: timestamps[i]))
        }
        return FIFOBatch(count: count, dropped: 0, transactions: transactions)
    }

    // MARK: Interrupts and power

    public func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError) {
        try bus.write(address, R.interruptPinConfig, R.interruptLatchedActiveHigh)
        let enabled = try bus.read(address, R.interruptEnable)
        switch source {
        case .dataReady:
            try bus.write(address, R.interruptEnable, enabled | R.interruptDataReady)
        case let .motion(thresholdG, durationMilliseconds):
            let threshold = min(255, max(1, Int((thresholdG / R.motionThresholdGPerLSB).rounded())))
            try bus.write(address, R.motionThreshold, UInt8(threshold))
            try bus.write(address, R.motionDuration, UInt8(min(255, max(1, durationMilliseconds))))
            try bus.update(address, R.accelHighPass, to: R.accelHighPass5Hz)
            try bus.write(address, R.interruptEnable, enabled | R.interruptMotion)
        }
    }

    public func disableInterrupts() throws(IMUDriverError) {
        try bus.write(address, R.interruptEnable, 0)
    }

    /// The low-power accelerometer mode (PS §6.2 "low power accelerometer mode", RM §108): the
    /// gyros in standby, the temperature sensor off, the chip waking at LP_WAKE_CTRL's rate to
    /// sample the accelerometer, motion detection (MOT_THR/MOT_DUR on the high-passed
    /// acceleration) as the only interrupt.
    public func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double {
        let wake = R.lowPowerWakeRates.nearest(rateHz)
        try bus.write(address, R.interruptEnable, 0)
        try enableInterrupt(.motion(thresholdG: thresholdG, durationMilliseconds: durationMilliseconds))
        try bus.update(address, R.accelHighPass, to: R.accelHighPass063Hz)
        _ = try bus.read(address, R.interruptStatus)  // nothing pending from before the watch
        try bus.write(address, R.powerManagement2, R.lowPowerWakeRate.replacing(wake.code, in: R.standbyGyros))
        try bus.write(address, R.powerManagement1, R.powerCycleTemperatureOff)
        return wake.hertz
    }

    public func endMotionWatch() throws(IMUDriverError) {
        try bus.write(address, R.powerManagement1, R.clockGyroX)
        try bus.write(address, R.powerManagement2, 0)
        try bus.write(address, R.interruptEnable, 0)
        _ = try bus.read(address, R.interruptStatus)  // releases the latched INT pin
        waitForFirstSample()
    }

    /// PWR_MGMT_1 reads CYCLE and TEMP_DIS while watching; 0x40 (asleep) after a power-on reset.
    public func isWatchingForMotion() throws(IMUDriverError) -> Bool {
        try bus.read(address, R.powerManagement1) == R.powerCycleTemperatureOff
    }

    /// Reads and clears INT_STATUS (RM §58).
    public func interruptStatus() throws(IMUDriverError) -> (dataReady: Bool, motion: Bool, fifoOverflow: Bool) {
        let status = try bus.read(address, R.interruptStatus)
        return (status & R.interruptDataReady != 0, status & R.interruptMotion != 0, status & R.interruptFIFOOverflow != 0)
    }

    /// PWR_MGMT_1 reads CLKSEL = 1, awake, when configured; 0x40 (asleep) after a power-on reset.
    public func isConfigured() throws(IMUDriverError) -> Bool {
        let power = try bus.read(address, R.powerManagement1)
        // 0xFF (reset, sleep, cycle and the stopped clock at once) is no state the chip settles
        // in: the data line floating high.
        guard power != 0xFF else { throw .implausible(bus: bus.name, address: address, what: "0xff in PWR_MGMT_1") }
        return power & ~R.powerSleep == R.clockGyroX
    }

    public func sleep() throws(IMUDriverError) {
        try bus.update(address, RegisterField(register: R.powerManagement1, mask: R.powerSleep), to: 1)
    }

    public func wake() throws(IMUDriverError) {
        try bus.update(address, RegisterField(register: R.powerManagement1, mask: R.powerSleep), to: 0)
        waitForFirstSample()
    }
}
