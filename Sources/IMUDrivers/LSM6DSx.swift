import IMUBus
import IMUGeometry

/// Driver for ST's LSM6DS3, LSM6DS3TR-C, LSM6DSL and LSM6DSOX accelerometer + gyroscope (+
/// thermometer), with an LIS3MDL magnetometer beside it when the board has one. What differs
/// between the parts is a row of `LSM6DSxMap` (FIFO layout, temperature scale, where the
/// wake-up's bits sit); registers and tables in `LSM6DSxRegisters`.
///
/// A sample set is one 14-byte burst from OUT_TEMP_L (temperature, gyro, accel) plus one 6-byte
/// burst on the LIS3MDL. A FIFO batch is the status, one burst over every unread word or entry,
/// and the magnetometer: three transactions (two without a magnetometer).
public final class LSM6DSx: IMUDriver {
    public let bus: any I2CBus
    public let address: UInt8
    public let magnetometerAddress: UInt8?
    public let clock: any MonotonicClock
    public var model: ChipModel { map.model }
    /// The part's row, without the magnetometer when the board carries no LIS3MDL.
    public var capabilities: ChipCapabilities {
        var capabilities = model.part.capabilities
        capabilities.magnetometer = magnetometer != nil
        return capabilities
    }
    public private(set) var configuration: IMUConfiguration

    private typealias R = LSM6DSxRegisters
    private let map: LSM6DSxMap
    private var magnetometer: STMagnetometer?
    private var decoder = SixAxisDecoder(order: .littleEndian)
    /// CTRL1_XL and CTRL2_G as configured, to restore them after `sleep()`.
    private var accelControl: UInt8 = 0
    private var gyroControl: UInt8 = 0
    private var fifo = FIFOBookkeeping()
    private let fifoBuffer: UnsafeMutableRawBufferPointer
    /// Tagged FIFO: a gyro or accel entry whose partner comes in the next batch.
    private var pendingGyro: Vector3?
    private var pendingAccel: Vector3?

    public init(_ model: ChipModel, bus: any I2CBus, address: UInt8 = 0x6A, magnetometerAddress: UInt8?, clock: any MonotonicClock) {
        self.map = LSM6DSxMap.of(model)
        self.bus = bus
        self.address = address
        self.magnetometerAddress = magnetometerAddress
        self.magnetometer = magnetometerAddress.map { STMagnetometer(bus: bus, address: $0, map: LIS3MDLRegisters.map) }
        self.clock = clock
        let bytes: Int
        switch map.fifo {
        case .pattern(let words, _): bytes = words * 2
        case .tagged(let entries): bytes = entries * LSM6DSxTaggedFIFO.entryLength
        }
        fifoBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 8)
        configuration = IMUConfiguration(
            accelerometerScale: R.accelScales[0], gyroscopeScale: R.gyroScales[0], sampleRate: R.sampleRates[0],
            lowPassBandwidthHz: nil,
            magnetometerScale: magnetometerAddress.map { _ in LIS3MDLRegisters.scales[0] },
            magnetometerRate: magnetometerAddress.map { _ in LIS3MDLRegisters.rates[0] })
        decoder.apply(configuration)
    }

    deinit { fifoBuffer.deallocate() }

    /// Checks the accel/gyro part's WHO_AM_I and, when there is one, the LIS3MDL's.
    public func verifyIdentity() throws(IMUDriverError) {
        _ = try model.part.checkIdentity(on: bus, at: address)
        if let magnetometerAddress { try model.part.checkMagnetometerIdentity(on: bus, at: magnetometerAddress) }
    }

    public func configure(_ settings: IMUSettings) throws(IMUDriverError) {
        try verifyIdentity()
        try bus.write(address, R.control3, R.control3Reset)
        try magnetometer?.softReset()
        clock.sleep(seconds: 0.01)

        let rate = R.sampleRates.nearest(settings.sampleRateHz)
        let gyro = R.gyroScales.covering(settings.gyroscopeRangeDegreesPerSecond)
        let accel = R.accelScales.covering(settings.accelerometerRangeG)
        try bus.write(address, R.control3, R.control3Operating)
        accelControl = R.accelFullScale.replacing(accel.code, in: R.accelRate.replacing(rate.code, in: 0))
        gyroControl = R.gyroFullScale.replacing(gyro.code, in: R.gyroRate.replacing(rate.code, in: 0))
        try bus.write(address, R.accelControl, accelControl)
        try bus.write(address, R.gyroControl, gyroControl)

        var fieldScale: FullScale?, fieldRate: DataRate?
        if magnetometer != nil {
            let scale = LIS3MDLRegisters.scales.covering(settings.magnetometerRangeGauss)
            let rate = LIS3MDLRegisters.rates.nearest(settings.magnetometerRateHz)
            try magnetometer!.configure(rate: rate, scale: scale)
            (fieldScale, fieldRate) = (scale, rate)
        }
        configuration = IMUConfiguration(
            accelerometerScale: accel, gyroscopeScale: gyro, sampleRate: rate, lowPassBandwidthHz: nil,
            magnetometerScale: fieldScale, magnetometerRate: fieldRate)
        decoder.apply(configuration)
        fifo.start(at: nil)
        waitForFirstSample()
    }

    /// Until the first conversion the output registers hold zeros: wait two accel/gyro periods
    /// and one magnetometer period.
    private func waitForFirstSample() {
        clock.sleep(seconds: configuration.firstSampleWait(gyroStartUpSeconds: 0))
    }

    public func readSample() throws(IMUDriverError) -> MotionSample {
        var sample = try bus.readSampleSet(address, R.sampleSet, decoder: decoder, clock: clock, temperatureCelsius: map.temperatureCelsius)
        sample.magneticField = try magnetometer?.readField()
        return sample
    }

    // MARK: FIFO

    public func startFIFO() throws(IMUDriverError) {
        let code = configuration.sampleRate.code
        switch map.fifo {
        case .pattern:
            typealias F = LSM6DSxPatternFIFO
            // DSL §8.3: bypass mode empties the FIFO.
            try bus.write(address, F.control5, R.fifoModeBypass)
            try bus.write(address, F.control3, F.bothUndecimated)
            try bus.write(address, F.control5, code << 3 | R.fifoModeContinuous)
        case .tagged:
            typealias F = LSM6DSxTaggedFIFO
            try bus.write(address, F.control4, R.fifoModeBypass)
            try bus.write(address, F.control3, code << 4 | code)
            try bus.write(address, F.control4, R.fifoModeContinuous)
        }
        pendingGyro = nil
        pendingAccel = nil
        fifo.start(at: clock.now)
    }

    public func stopFIFO() throws(IMUDriverError) {
        switch map.fifo {
        case .pattern:
            try bus.write(address, LSM6DSxPatternFIFO.control5, R.fifoModeBypass)
            try bus.write(address, LSM6DSxPatternFIFO.control3, 0)
        case .tagged:
            try bus.write(address, LSM6DSxTaggedFIFO.control4, R.fifoModeBypass)
            try bus.write(address, LSM6DSxTaggedFIFO.control3, 0)
        }
        fifo.start(at: nil)
    }

    public func drainFIFO(into samples: inout [MotionSample]) throws(IMUDriverError) -> FIFOBatch {
        switch map.fifo {
        case .pattern(let capacity, let mask): try drainPatternFIFO(into: &samples, capacityWords: capacity, unreadHighMask: mask)
        case .tagged(let capacity): try drainTaggedFIFO(into: &samples, capacityEntries: capacity)
        }
    }

    private func fifoStatus(_ length: Int) throws(IMUDriverError) -> (UInt8, UInt8, UInt8) {
        var bytes: UInt32 = 0
        return try withUnsafeMutableBytes(of: &bytes) { (raw) throws(IMUDriverError) -> (UInt8, UInt8, UInt8) in
            let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[0..<length])
            try bus.burst(address, R.fifoStatus1, into: buffer)
            return (buffer[0], buffer[1], length > 2 ? buffer[2] : 0)
        }
    }

    private func garbledCount(_ count: Int, _ capacity: Int, _ what: String) -> IMUDriverError {
        .bus(I2CError(.bus, bus: bus.name, address: address,
                      detail: "FIFO_STATUS read \(count) unread \(what), more than the \(capacity) the FIFO holds"))
    }

    /// Whole pattern sets only: a partial set stays for the next drain. A pattern position
    /// other than 0 (the FIFO read out of step, never the case when this driver reads it) restarts it.
    private func drainPatternFIFO(into samples: inout [MotionSample], capacityWords: Int, unreadHighMask: UInt8) throws(IMUDriverError) -> FIFOBatch {
        typealias F = LSM6DSxPatternFIFO
        let (status1, status2, patternLow) = try fifoStatus(F.statusLength)
        let now = clock.now
        let period = 1 / configuration.sampleRate.hertz
        let words = Int(status2 & unreadHighMask) << 8 | Int(status1)
        guard words <= capacityWords else { throw garbledCount(words, capacityWords, "words") }
        var count = words / F.wordsPerSet
        let overrun = status2 & F.overrun != 0
        if patternLow != 0 {
            try startFIFO()
            count = 0
        }
        let dropped = overrun || patternLow != 0 ? fifo.overflowed(at: now, period: period, kept: count) : 0
        guard count > 0 else {
            fifo.drainedNothing(at: now)
            return FIFOBatch(count: 0, dropped: dropped, transactions: patternLow != 0 ? 4 : 1)
        }
        let length = count * F.wordsPerSet * 2
        let buffer = UnsafeMutableRawBufferPointer(rebasing: fifoBuffer[0..<length])
        let reads = try bus.readFIFOPort(address, F.dataOut, recordLength: 2, into: buffer)
        let field = try magnetometer?.readField()
        let frames = FIFOFrames(data: UnsafeRawBufferPointer(buffer), count: count, length: F.wordsPerSet * 2)
        guard !frames.anyAllOnes else { throw .implausible(bus: bus.name, address: address, what: "a FIFO set of all 0xFF") }
        let timestamps = fifo.drained(count, at: now, period: period)
        frames.decode(decoder, accelAt: 6, gyroAt: 0, timestamps: timestamps, field: field, into: &samples)
        return FIFOBatch(count: count, dropped: dropped, transactions: 1 + reads + (magnetometer == nil ? 0 : 1))
    }

    /// Entries are paired into sample sets (a gyro entry with the accel entry batched beside it);
    /// temperature, timestamp and configuration-change entries are skipped.
    private func drainTaggedFIFO(into samples: inout [MotionSample], capacityEntries: Int) throws(IMUDriverError) -> FIFOBatch {
        typealias F = LSM6DSxTaggedFIFO
        let (status1, status2, _) = try fifoStatus(F.statusLength)
        let now = clock.now
        let period = 1 / configuration.sampleRate.hertz
        let entries = Int(status2 & F.unreadHighMask) << 8 | Int(status1)
        guard entries <= capacityEntries else { throw garbledCount(entries, capacityEntries, "entries") }
        var dropped = 0
        if status2 & F.overrun != 0 {
            dropped = fifo.overflowed(at: now, period: period, kept: entries / 2)
            (pendingGyro, pendingAccel) = (nil, nil)
        }
        guard entries > 0 else {
            fifo.drainedNothing(at: now)
            return FIFOBatch(count: 0, dropped: dropped, transactions: 1)
        }
        let buffer = UnsafeMutableRawBufferPointer(rebasing: fifoBuffer[0..<(entries * F.entryLength)])
        let reads = try bus.readFIFOPort(address, F.dataOutTag, recordLength: F.entryLength, into: buffer)
        let data = UnsafeRawBufferPointer(buffer)
        var pairs: [(gyro: Vector3, accel: Vector3)] = []
        pairs.reserveCapacity(entries / 2 + 1)
        for i in 0..<entries {
            let entry = UnsafeRawBufferPointer(rebasing: data[(i * F.entryLength)..<((i + 1) * F.entryLength)])
            guard !RegisterBytes.allOnes(entry) else { throw .implausible(bus: bus.name, address: address, what: "a FIFO entry of all 0xFF") }
            let counts = decoder.counts(entry, at: 1)
            switch entry[0] >> 3 {
            case F.gyroTag: pendingGyro = counts
            case F.accelTag: pendingAccel = counts
            default: continue
            }
            if let gyro = pendingGyro, let accel = pendingAccel {
                pairs.append((gyro, accel))
                (pendingGyro, pendingAccel) = (nil, nil)
            }
        }
        let field = pairs.isEmpty ? nil : try magnetometer?.readField()
        guard !pairs.isEmpty else {
            fifo.drainedNothing(at: now)
            return FIFOBatch(count: 0, dropped: dropped, transactions: 1 + reads)
        }
        let timestamps = fifo.drained(pairs.count, at: now, period: period)
        samples.reserveCapacity(samples.count + pairs.count)
        let gPerLSB = decoder.accelGPerLSB, radiansPerLSB = decoder.gyroRadiansPerSecondPerLSB
        for (i, pair) in pairs.enumerated() {
            samples.append(MotionSample(
                timestamp: timestamps[i], acceleration: pair.accel * -gPerLSB, rotationRate: pair.gyro * radiansPerLSB,
                magneticField: field))
        }
        return FIFOBatch(count: pairs.count, dropped: dropped, transactions: 1 + reads + (magnetometer == nil ? 0 : 1))
    }

    // MARK: Interrupts and power

    public func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError) {
        switch source {
        case .dataReady:
            let routed = try bus.read(address, R.int1Control)
            try bus.write(address, R.int1Control, routed | R.int1DataReadyAccel)
        case let .motion(thresholdG, durationMilliseconds):
            try configureWakeUp(thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, rateHz: configuration.sampleRate.hertz)
            try bus.write(address, R.md1Config, R.md1WakeUp)
        }
    }

    /// The wake-up detector: any axis of the slope-filtered acceleration beyond WK_THS for
    /// WAKE_DUR + 1 samples. The slope filter, (a[n] − a[n−1]) / 2 (AN5040 §5.2, AN5272 §5.2),
    /// takes gravity out but shows a step of thresholdG as half of it: WK_THS is half the
    /// threshold, so a change of thresholdG fires as on the parts with a true high-pass.
    private func configureWakeUp(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) {
        let step = configuration.accelerometerScale.range / R.wakeUpThresholdSteps
        let threshold = UInt8(min(R.wakeUpThresholdMaximum, max(1, Int((thresholdG / 2 / step).rounded()))))
        try bus.write(address, R.wakeUpThreshold, threshold)
        let samples = Int((Double(durationMilliseconds) / 1000 * rateHz).rounded())
        try bus.write(address, R.wakeUpDuration, R.wakeUpDurationField.replacing(UInt8(min(3, max(0, samples))), in: 0))
        if let enable = map.interruptsEnableRegister { try bus.update(address, RegisterField(register: enable, mask: 0x80), to: 1) }
    }

    private var latch: RegisterField { RegisterField(register: map.latchRegister, mask: 0x01) }

    /// The accelerometer alone in low-power mode (gyro and magnetometer off), its wake-up
    /// latched on INT1 as the only source (DSL AN5040 §5.4, DSOX AN5272 §5.4).
    public func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double {
        let rate = R.lowPowerRates.nearest(rateHz)
        try bus.write(address, R.int1Control, 0)
        try bus.write(address, R.md1Config, 0)
        try bus.write(address, R.gyroControl, 0)
        try bus.write(address, R.control6, R.accelLowPower)
        try bus.write(address, R.accelControl, R.accelRate.replacing(rate.code, in: accelControl))
        try magnetometer?.powerDown()
        try configureWakeUp(thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, rateHz: rate.hertz)
        try bus.update(address, latch, to: 1)
        _ = try bus.read(address, R.wakeUpSource)  // nothing pending from before the watch
        try bus.write(address, R.md1Config, R.md1WakeUp)
        return rate.hertz
    }

    public func endMotionWatch() throws(IMUDriverError) {
        try disableInterrupts()
        try bus.update(address, latch, to: 0)
        _ = try bus.read(address, R.wakeUpSource)  // releases a latched INT1
        try bus.write(address, R.control6, 0)
        try wake()
    }

    /// MD1_CFG routes the wake-up to INT1 while watching; 0 after a power-on reset.
    public func isWatchingForMotion() throws(IMUDriverError) -> Bool {
        try bus.read(address, R.md1Config) == R.md1WakeUp
    }

    public func disableInterrupts() throws(IMUDriverError) {
        try bus.write(address, R.int1Control, 0)
        try bus.write(address, R.md1Config, 0)
        if let enable = map.interruptsEnableRegister { try bus.update(address, RegisterField(register: enable, mask: 0x80), to: 0) }
    }

    /// CTRL1_XL holds the configured rate and range; 0 (power-down) after a power-on reset.
    public func isConfigured() throws(IMUDriverError) -> Bool {
        let control = try bus.read(address, R.accelControl)
        // ODR_XL = 1111 is not a rate (DSL Table 52): 0xFF is the data line floating high.
        guard control != 0xFF else { throw .implausible(bus: bus.name, address: address, what: "0xff in CTRL1_XL") }
        return control == accelControl
    }

    public func sleep() throws(IMUDriverError) {
        try bus.write(address, R.gyroControl, 0)
        try bus.write(address, R.accelControl, 0)
        try magnetometer?.powerDown()
    }

    public func wake() throws(IMUDriverError) {
        try bus.write(address, R.accelControl, accelControl)
        try bus.write(address, R.gyroControl, gyroControl)
        try magnetometer?.resume()
        waitForFirstSample()
    }
}
