import IMUBus
import IMUGeometry

/// The MPU-6050's driver under the name everyone uses (`MPU6050(bus:clock:)`).
public typealias MPU6050 = InvenSenseIMU

/// Driver for the InvenSense MPU-6050 and the MPU-6500 family (MPU-6500, MPU-9250, MPU-9255):
/// accelerometer, gyroscope and thermometer on one die, sharing the data, FIFO, interrupt and
/// power registers; where the maps differ (`InvenSenseMap`: low-pass filters, FIFO size, the
/// temperature formula, motion detection) the driver walks the part's row. The MPU-9250's
/// AK8963 magnetometer is read through the I²C bypass (`AKMagnetometer`).
///
/// One sample set is one 14-byte burst from ACCEL_XOUT_H (plus, on the MPU-9250, one 8-byte
/// burst on the AK8963); the FIFO is drained with one FIFO_COUNT read and one burst from the
/// FIFO port.
public final class InvenSenseIMU: InvenSenseFIFODriver {
    public let bus: any I2CBus
    public let address: UInt8
    public let clock: any MonotonicClock
    public var model: ChipModel { map.model }
    public var capabilities: ChipCapabilities { map.model.part.capabilities }
    public private(set) var configuration: IMUConfiguration
    /// The identity the chip answered with at the last `configure` (a clone says so here).
    public private(set) var identity: AcceptedIdentity?

    private typealias R = MPU6050Registers
    private typealias R65 = MPU6500Registers
    let map: InvenSenseMap
    private(set) var decoder = SixAxisDecoder(order: .bigEndian)
    private var magnetometer: AKMagnetometer?
    /// CONFIG and ACCEL_CONFIG 2 as configured (the 6500 map's proof of configuration, and what
    /// the motion watch restores).
    private var configByte: UInt8 = 0
    private var accelConfig2Byte: UInt8 = 0
    var fifo = FIFOBookkeeping()
    let fifoBuffer: UnsafeMutableRawBufferPointer

    /// An MPU-6050 at `address`.
    public convenience init(bus: any I2CBus, address: UInt8 = 0x68, clock: any MonotonicClock) {
        self.init(bus: bus, address: address, clock: clock, map: .mpu6050)
    }

    /// The InvenSense part `model` at `address`; an MPU-9250's magnetometer at
    /// `magnetometerAddress` (0x0C, behind the bypass).
    public convenience init(
        _ model: ChipModel, bus: any I2CBus, address: UInt8 = 0x68, magnetometerAddress: UInt8? = nil,
        clock: any MonotonicClock
    ) {
        self.init(bus: bus, address: address, clock: clock, map: InvenSenseMap.of(model), magnetometerAddress: magnetometerAddress)
    }

    init(bus: any I2CBus, address: UInt8, clock: any MonotonicClock, map: InvenSenseMap, magnetometerAddress: UInt8? = nil) {
        self.bus = bus
        self.address = address
        self.clock = clock
        self.map = map
        fifoBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: map.fifo.capacityBytes, alignment: 8)
        if map.model.part.magnetometer != nil {
            magnetometer = AKMagnetometer(bus: bus, address: magnetometerAddress ?? AK8963Registers.address, map: AK8963Registers.map)
        }
        configuration = IMUConfiguration(
            accelerometerScale: R.accelScales[0], gyroscopeScale: R.gyroScales[0],
            sampleRate: R.sampleRates[0], lowPassBandwidthHz: nil,
            magnetometerScale: magnetometer.map { _ in AK8963Registers.fullScale16Bit },
            magnetometerRate: magnetometer.map { _ in AK8963Registers.continuousRates[1] })
        decoder.apply(configuration)
    }

    deinit { fifoBuffer.deallocate() }

    /// Checks WHO_AM_I against the part's description, naming other parts instead of misreading them.
    public func verifyIdentity() throws(IMUDriverError) {
        identity = try model.part.checkIdentity(on: bus, at: address)
    }

    public func configure(_ settings: IMUSettings) throws(IMUDriverError) {
        try verifyIdentity()
        // RM §107 / RM9 Register 107: reset, then wake with the gyro-X PLL as clock (more
        // stable than the internal oscillator).
        try bus.write(address, R.powerManagement1, R.powerDeviceReset)
        clock.sleep(seconds: 0.1)  // PS §6.4: registers are back at defaults after up to 100 ms
        try bus.write(address, R.powerManagement1, R.clockGyroX)

        let accel = R.accelScales.covering(settings.accelerometerRangeG)
        let gyro = R.gyroScales.covering(settings.gyroscopeRangeDegreesPerSecond)
        let rate = R.sampleRates.nearest(settings.sampleRateHz)
        // Anti-aliasing: the widest low-pass at or below half the sample rate.
        let filter = map.gyroLowPass.forSampleRate(rate.hertz)
        configByte = R.lowPassFilter.replacing(filter.code, in: 0)

        try bus.write(address, R.config, configByte)
        try bus.write(address, R.sampleRateDivider, rate.code)
        try bus.write(address, R.gyroConfig, R.gyroFullScale.replacing(gyro.code, in: 0))
        try bus.write(address, R.accelConfig, R.accelFullScale.replacing(accel.code, in: 0))
        if let accelLowPass = map.accelLowPass {
            accelConfig2Byte = accelLowPass.forSampleRate(rate.hertz).code
            try bus.write(address, R65.accelConfig2, accelConfig2Byte)
            // A clone accepted on its WHO_AM_I must follow the 6500 map: ACCEL_CONFIG 2, which
            // the MPU-6050 lacks, reads back what was written, or the part is refused.
            let readBack = try bus.read(address, R65.accelConfig2)
            guard readBack == accelConfig2Byte else {
                throw .unsupported(
                    "the chip answers an MPU-6500-family WHO_AM_I but does not follow that register map "
                        + "(ACCEL_CONFIG 2, 0x1d, did not read back what was written): not read, to avoid misreading it")
            }
        }
        var fieldRate: DataRate?
        if let magnetometer {
            try bus.write(address, R.interruptPinConfig, pinConfig(latched: false))  // opens the bypass
            fieldRate = try magnetometer.configure(rateHz: settings.magnetometerRateHz, model: model, clock: clock)
        }
        configuration = IMUConfiguration(
            accelerometerScale: accel, gyroscopeScale: gyro, sampleRate: rate,
            lowPassBandwidthHz: filter.hertz,
            magnetometerScale: fieldRate.map { _ in AK8963Registers.fullScale16Bit }, magnetometerRate: fieldRate)
        decoder.apply(configuration)
        fifo.start(at: nil)
        waitForFirstSample()
    }

    /// INT_PIN_CFG: latched or not, and on the MPU-9250 the bypass kept open (writing the
    /// register without it would cut the magnetometer off the bus).
    private func pinConfig(latched: Bool) -> UInt8 {
        (latched ? R.interruptLatchedActiveHigh : 0) | (magnetometer == nil ? 0 : R65.bypassEnable)
    }

    /// Until the first conversion the output registers hold zeros, which must not pass for a
    /// reading: wait for the gyro to start (PS §6.1: 30 ms) and two sample periods (and one
    /// magnetometer period on the MPU-9250).
    private func waitForFirstSample() {
        clock.sleep(seconds: configuration.firstSampleWait(gyroStartUpSeconds: 0.03))
    }

    public func readSample() throws(IMUDriverError) -> MotionSample {
        var sample = try bus.readSampleSet(address, R.sampleSet, decoder: decoder, clock: clock, temperatureCelsius: map.temperatureCelsius)
        if let magnetometer { sample.magneticField = try magnetometer.readField() }
        return sample
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

    var fifoRow: InvenSenseFIFO { map.fifo }

    var batchMagnetometer: AKMagnetometer? { magnetometer }

    /// USER_CTRL FIFO_RESET with the FIFO kept enabled (RM §106).
    func restartFIFO() throws(IMUDriverError) -> Int {
        try bus.write(address, R.userControl, R.userFIFOEnable | R.userFIFOReset)
        return 1
    }

    // MARK: Interrupts and power

    public func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError) {
        try bus.write(address, R.interruptPinConfig, pinConfig(latched: true))
        let enabled = try bus.read(address, R.interruptEnable)
        switch source {
        case .dataReady:
            try bus.write(address, R.interruptEnable, enabled | R.interruptDataReady)
        case let .motion(thresholdG, durationMilliseconds):
            try map.motion.arm(self, thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, lowPower: false)
            try bus.write(address, R.interruptEnable, enabled | R.interruptMotion)
        }
    }

    public func disableInterrupts() throws(IMUDriverError) {
        try bus.write(address, R.interruptEnable, 0)
    }

    /// The low-power accelerometer mode: the gyros in standby, the temperature sensor off, the
    /// chip waking at the low-power rate to sample the accelerometer, its motion detection
    /// (MPU-6050: MOT_THR/MOT_DUR on the high-passed acceleration, PS §6.2 and RM §108;
    /// MPU-6500 map: wake-on-motion, PS9 §6.1) as the only interrupt.
    public func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double {
        try bus.write(address, R.interruptEnable, 0)
        if let magnetometer { try magnetometer.powerDown(clock: clock) }
        try bus.write(address, R.interruptPinConfig, pinConfig(latched: true))
        try map.motion.arm(self, thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, lowPower: true)
        try bus.write(address, R.interruptEnable, R.interruptMotion)
        _ = try bus.read(address, R.interruptStatus)  // nothing pending from before the watch
        let wake = try map.motion.enterCycle(self, rateHz: rateHz)
        try bus.write(address, R.powerManagement1, R.powerCycleTemperatureOff)
        return wake
    }

    public func endMotionWatch() throws(IMUDriverError) {
        try bus.write(address, R.powerManagement1, R.clockGyroX)
        try bus.write(address, R.powerManagement2, 0)
        try bus.write(address, R.interruptEnable, 0)
        try map.motion.disarm(self)
        _ = try bus.read(address, R.interruptStatus)  // releases the latched INT pin
        if let magnetometer { try magnetometer.resume(clock: clock) }
        waitForFirstSample()
    }

    /// PWR_MGMT_1 reads CYCLE and TEMP_DIS (PD_PTAT on the 6500 map) while watching; its
    /// power-on default otherwise.
    public func isWatchingForMotion() throws(IMUDriverError) -> Bool {
        try bus.read(address, R.powerManagement1) == R.powerCycleTemperatureOff
    }

    /// Reads and clears INT_STATUS (RM §58).
    public func interruptStatus() throws(IMUDriverError) -> (dataReady: Bool, motion: Bool, fifoOverflow: Bool) {
        let status = try bus.read(address, R.interruptStatus)
        return (status & R.interruptDataReady != 0, status & R.interruptMotion != 0, status & R.interruptFIFOOverflow != 0)
    }

    /// One register read. MPU-6050: PWR_MGMT_1 reads CLKSEL = 1, awake, when configured and
    /// 0x40 (asleep) after a power-on reset. The 6500 map wakes up at CLKSEL = 1 by itself
    /// (RM9 Table 1: PWR_MGMT_1 resets to 0x01), so there CONFIG is asked: it holds the
    /// configured low-pass code, 0 after a reset.
    public func isConfigured() throws(IMUDriverError) -> Bool {
        if map.accelLowPass != nil {
            let config = try bus.read(address, R.config)
            guard config != 0xFF else { throw .implausible(bus: bus.name, address: address, what: "0xff in CONFIG") }
            return config == configByte
        }
        let power = try bus.read(address, R.powerManagement1)
        // 0xFF (reset, sleep, cycle and the stopped clock at once) is no state the chip settles
        // in: the data line floating high.
        guard power != 0xFF else { throw .implausible(bus: bus.name, address: address, what: "0xff in PWR_MGMT_1") }
        return power & ~R.powerSleep == R.clockGyroX
    }

    public func sleep() throws(IMUDriverError) {
        try bus.update(address, RegisterField(register: R.powerManagement1, mask: R.powerSleep), to: 1)
        if let magnetometer { try magnetometer.powerDown(clock: clock) }
    }

    public func wake() throws(IMUDriverError) {
        try bus.update(address, RegisterField(register: R.powerManagement1, mask: R.powerSleep), to: 0)
        if let magnetometer { try magnetometer.resume(clock: clock) }
        waitForFirstSample()
    }

    // MARK: For the map's motion engines

    func write(_ register: UInt8, _ value: UInt8) throws(IMUDriverError) {
        try bus.write(address, register, value)
    }

    func update(_ field: RegisterField, to code: UInt8) throws(IMUDriverError) {
        try bus.update(address, field, to: code)
    }

    var configuredAccelConfig2: UInt8 { accelConfig2Byte }
}
