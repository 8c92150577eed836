import IMUBus
import IMUGeometry

/// Driver for the ST LSM9DS1: accelerometer + gyroscope (+ thermometer) at one address, a
/// magnetometer at another.
///
/// A sample set is two transactions: one burst over temperature, status, gyro and accel on the
/// accel/gyro part (the chip's pointer skips from the gyro to the accel registers), one 6-byte
/// burst on the magnetometer (which updates at its own, slower rate). A FIFO batch is two: the
/// fill level, then every level in one burst.
public final class LSM9DS1: IMUDriver {
    public let bus: any I2CBus
    public let address: UInt8
    public let magnetometerAddress: UInt8
    public let clock: any MonotonicClock
    public let model = ChipModel.lsm9ds1
    public var capabilities: ChipCapabilities { model.part.capabilities }
    public private(set) var configuration: IMUConfiguration

    private typealias R = LSM9DS1Registers
    private var decoder = SixAxisDecoder(order: .littleEndian)
    private var magnetometer: STMagnetometer
    /// CTRL_REG1_G and CTRL_REG6_XL as configured, to restore them after `sleep()`.
    private var gyroControl: UInt8 = 0
    private var accelControl: UInt8 = 0
    private var fifo = FIFOBookkeeping()
    private let fifoBuffer = UnsafeMutableRawBufferPointer.allocate(
        byteCount: LSM9DS1Registers.fifoCapacity * LSM9DS1Registers.fifoSlotLength, alignment: 8)

    public init(bus: any I2CBus, address: UInt8 = 0x6A, magnetometerAddress: UInt8 = 0x1C, clock: any MonotonicClock) {
        self.bus = bus
        self.address = address
        self.magnetometerAddress = magnetometerAddress
        self.clock = clock
        magnetometer = STMagnetometer(bus: bus, address: magnetometerAddress, map: R.magnetometerMap)
        configuration = IMUConfiguration(
            accelerometerScale: R.accelScales[0], gyroscopeScale: R.gyroScales[0],
            sampleRate: R.sampleRates[0], lowPassBandwidthHz: nil,
            magnetometerScale: R.magnetometerScales[0], magnetometerRate: R.magnetometerRates[0])
        applyConversion()
    }

    deinit { fifoBuffer.deallocate() }

    /// Checks both dies' WHO_AM_I against the part's description.
    public func verifyIdentity() throws(IMUDriverError) {
        _ = try model.part.checkIdentity(on: bus, at: address)
        try model.part.checkMagnetometerIdentity(on: bus, at: magnetometerAddress)
    }

    public func configure(_ settings: IMUSettings) throws(IMUDriverError) {
        try verifyIdentity()
        try bus.write(address, R.control8, R.control8Reset)
        try magnetometer.softReset()
        clock.sleep(seconds: 0.01)

        let rate = R.sampleRates.nearest(settings.sampleRateHz)
        let gyro = R.gyroScales.covering(settings.gyroscopeRangeDegreesPerSecond)
        let accel = R.accelScales.covering(settings.accelerometerRangeG)
        let fieldScale = R.magnetometerScales.covering(settings.magnetometerRangeGauss)
        let fieldRate = R.magnetometerRates.nearest(settings.magnetometerRateHz)

        try bus.write(address, R.control8, R.control8Operating)
        // The widest gyro low-pass at or below half the rate (anti-aliasing, like the MPU-6050's DLPF).
        let bandwidths = R.gyroBandwidthsHz[rate.code] ?? []
        let bandwidth = bandwidths.indices.last { bandwidths[$0] <= rate.hertz / 2 }
        gyroControl = R.gyroBandwidth.replacing(UInt8(bandwidth ?? 0), in:
            R.gyroFullScale.replacing(gyro.code, in: R.gyroRate.replacing(rate.code, in: 0)))
        accelControl = R.accelFullScale.replacing(accel.code, in: R.accelRate.replacing(rate.code, in: 0))
        try bus.write(address, R.accelControl6, accelControl)
        try bus.write(address, R.gyroControl1, gyroControl)

        try magnetometer.configure(rate: fieldRate, scale: fieldScale)

        configuration = IMUConfiguration(
            accelerometerScale: accel, gyroscopeScale: gyro, sampleRate: rate,
            lowPassBandwidthHz: bandwidth.map { bandwidths[$0] },
            magnetometerScale: fieldScale, magnetometerRate: fieldRate)
        applyConversion()
        fifo.start(at: nil)
        waitForFirstSample()
    }

    /// Until the first conversion the output registers hold zeros, which must not pass for a
    /// reading: wait two accel/gyro periods and one magnetometer period.
    private func waitForFirstSample() {
        let magnetometerPeriod = 1 / (configuration.magnetometerRate?.hertz ?? 80)
        clock.sleep(seconds: max(2 / configuration.sampleRate.hertz, magnetometerPeriod + 0.005))
    }

    private func applyConversion() {
        decoder.apply(configuration)
        magnetometer.use(configuration.magnetometerScale)
    }

    public func readSample() throws(IMUDriverError) -> MotionSample {
        var sample = try bus.readSampleSet(address, R.sampleSet, decoder: decoder, clock: clock, temperatureCelsius: R.temperatureCelsius)
        sample.magneticField = try readMagneticField()
        return sample
    }

    /// One 6-byte burst from the magnetometer, in µT, turned into the accel/gyro axes.
    public func readMagneticField() throws(IMUDriverError) -> Vector3 {
        try magnetometer.readField()
    }

    // MARK: FIFO

    public func startFIFO() throws(IMUDriverError) {
        // DS §3.5.2: passing through bypass mode empties the FIFO.
        try bus.write(address, R.fifoControl, R.fifoModeBypass)
        try bus.write(address, R.control9, R.control9FIFOEnable)
        try bus.write(address, R.fifoControl, R.fifoModeContinuous)
        fifo.start(at: clock.now)
    }

    public func stopFIFO() throws(IMUDriverError) {
        try bus.write(address, R.fifoControl, R.fifoModeBypass)
        try bus.write(address, R.control9, 0)
        fifo.start(at: nil)
    }

    /// FIFO_SRC says how many levels are unread; one burst from OUT_X_L_G then reads them all
    /// (the pointer wraps from the last accel register back to the gyro's, one level a turn).
    /// The FIFO holds no magnetic field: the magnetometer (which runs at 80 Hz at most) is read
    /// once a batch and its field given to the batch's samples. Three transactions a batch.
    public func drainFIFO(into samples: inout [MotionSample]) throws(IMUDriverError) -> FIFOBatch {
        let source = try bus.read(address, R.fifoSource)
        let now = clock.now
        let period = 1 / configuration.sampleRate.hertz
        let count = Int(source & R.fifoUnreadMask)
        // FSS counts 0…32 (DS §7.35): more is a status byte garbled on the wire, and reading that
        // many levels would overrun the batch buffer (and deliver stale levels as fresh).
        guard count <= R.fifoCapacity else {
            throw .bus(I2CError(
                .bus, bus: bus.name, address: address,
                detail: "FIFO_SRC read \(hex(source)): \(count) unread levels, more than the \(R.fifoCapacity) the FIFO holds"))
        }
        // Continuous mode keeps the newest 32 (DS §3.5.3); everything older since the last drain is gone.
        let dropped = source & R.fifoOverrun != 0 ? fifo.overflowed(at: now, period: period, kept: count) : 0
        guard count > 0 else {
            fifo.drainedNothing(at: now)
            return FIFOBatch(count: 0, dropped: dropped, transactions: 1)
        }

        let length = count * R.fifoSlotLength
        let buffer = UnsafeMutableRawBufferPointer(rebasing: fifoBuffer[0..<length])
        try bus.burst(address, R.gyroXLow, into: buffer)
        let field = try readMagneticField()
        let timestamps = fifo.drained(count, at: now, period: period)
        let frames = FIFOFrames(data: UnsafeRawBufferPointer(buffer), count: count, length: R.fifoSlotLength)
        guard !frames.anyAllOnes else { throw .implausible(bus: bus.name, address: address, what: "a FIFO level of all 0xFF") }
        frames.decode(decoder, accelAt: 6, gyroAt: 0, timestamps: timestamps, field: field, into: &samples)
        return FIFOBatch(count: count, dropped: dropped, transactions: 3)
    }

    // MARK: Interrupts and power

    public func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError) {
        let routed = try bus.read(address, R.int1Control)
        switch source {
        case .dataReady:
            try bus.write(address, R.int1Control, routed | R.int1DataReadyAccel)
        case let .motion(thresholdG, durationMilliseconds):
            try configureMotionInterrupt(
                thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, rateHz: configuration.sampleRate.hertz)
            try bus.write(address, R.int1Control, routed | R.int1InterruptGeneratorAccel)
        }
    }

    /// The accelerometer interrupt generator: a high event on any axis of the high-passed
    /// acceleration (gravity does not count), held for the duration (counted in samples at
    /// `rateHz`).
    private func configureMotionInterrupt(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) {
        let step = configuration.accelerometerScale.range / R.interruptThresholdSteps
        let threshold = UInt8(min(255, max(1, Int((thresholdG / step).rounded()))))
        for axis: UInt8 in 0..<3 {
            try bus.write(address, R.interruptThresholdXAccel + axis, threshold)
        }
        let samples = Int((Double(durationMilliseconds) / 1000 * rateHz).rounded())
        try bus.write(address, R.interruptDurationAccel, samples > 0 ? 0x80 | UInt8(min(127, samples)) : 0)
        try bus.write(address, R.accelControl7, R.accelHighPassForInterrupt)
        try bus.write(address, R.interruptGeneratorConfigAccel, R.interruptHighOnAnyAxis)
    }

    /// The accelerometer alone at ODR_XL (DS §3.1: the gyro powered down; the magnetometer too),
    /// its interrupt generator latched on INT1_A/G as the only source.
    public func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double {
        let rate = R.accelOnlyRates.nearest(rateHz)
        try bus.write(address, R.int1Control, 0)
        try bus.write(address, R.gyroControl1, 0)
        try bus.write(address, R.accelControl6, R.accelRate.replacing(rate.code, in: accelControl))
        try magnetometer.powerDown()
        try configureMotionInterrupt(thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, rateHz: rate.hertz)
        try bus.update(address, R.latchAccelInterrupt, to: 1)
        _ = try bus.read(address, R.interruptSourceAccel)  // nothing pending from before the watch
        try bus.write(address, R.int1Control, R.int1InterruptGeneratorAccel)
        return rate.hertz
    }

    public func endMotionWatch() throws(IMUDriverError) {
        try disableInterrupts()
        try bus.update(address, R.latchAccelInterrupt, to: 0)
        _ = try bus.read(address, R.interruptSourceAccel)  // releases a latched INT1
        try wake()
    }

    /// INT1_CTRL routes the accelerometer's interrupt generator while watching; 0 after a
    /// power-on reset.
    public func isWatchingForMotion() throws(IMUDriverError) -> Bool {
        try bus.read(address, R.int1Control) == R.int1InterruptGeneratorAccel
    }

    public func disableInterrupts() throws(IMUDriverError) {
        try bus.write(address, R.int1Control, 0)
        try bus.write(address, R.interruptGeneratorConfigAccel, 0)
        try bus.write(address, R.accelControl7, 0)
    }

    /// CTRL_REG1_G holds the configured rate and range; 0 (power-down) after a power-on reset.
    public func isConfigured() throws(IMUDriverError) -> Bool {
        let control = try bus.read(address, R.gyroControl1)
        // ODR_G = 111 is not a rate (DS Table 46): 0xFF is the data line floating high.
        guard control != 0xFF else { throw .implausible(bus: bus.name, address: address, what: "0xff in CTRL_REG1_G") }
        return control == gyroControl
    }

    public func sleep() throws(IMUDriverError) {
        try bus.write(address, R.gyroControl1, 0)
        try bus.write(address, R.accelControl6, 0)
        try magnetometer.powerDown()
    }

    public func wake() throws(IMUDriverError) {
        try bus.write(address, R.accelControl6, accelControl)
        try bus.write(address, R.gyroControl1, gyroControl)
        try magnetometer.resume()
        waitForFirstSample()
    }
}
