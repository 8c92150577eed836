import IMUBus
import IMUGeometry

/// Driver for the TDK InvenSense ICM-20948: accelerometer, gyroscope and thermometer on one die
/// (registers in four banks chosen by REG_BANK_SEL), and the AK09916 magnetometer read through
/// the I²C bypass (`AKMagnetometer`).
///
/// Bank switching stays out of the per-sample path: the data, FIFO, interrupt and power
/// registers are all in bank 0, so bank 2 (rates, ranges, filters, wake-on-motion) is selected
/// only while configuring or arming the motion watch, and every method leaves bank 0 selected.
/// A sample set costs two transactions: one 14-byte burst from ACCEL_XOUT_H (accel, gyro,
/// temperature) and one 9-byte burst ST1…ST2 on the AK09916. A FIFO drain costs one
/// FIFO_COUNT read, the FIFO port's bursts and one magnetometer burst.
public final class ICM20948: InvenSenseFIFODriver {
    public let bus: any I2CBus
    public let address: UInt8
    public let clock: any MonotonicClock
    public let model: ChipModel = .icm20948
    public var capabilities: ChipCapabilities { model.part.capabilities }
    public private(set) var configuration: IMUConfiguration

    private typealias R = ICM20948Registers
    private(set) var decoder = SixAxisDecoder(order: .bigEndian)
    private let magnetometer: AKMagnetometer
    /// The bank REG_BANK_SEL holds, as far as this driver knows (nil: not known, write it).
    private var selectedBank: UInt8?
    /// ACCEL_SMPLRT_DIV as configured (the motion watch changes it and restores it).
    private var accelDivider = 0
    var fifo = FIFOBookkeeping()
    let fifoBuffer: UnsafeMutableRawBufferPointer

    /// The ICM-20948 at `address` (0x68, or 0x69 with AD0 high), its AK09916 at
    /// `magnetometerAddress` (0x0C, behind the bypass).
    public init(bus: any I2CBus, address: UInt8 = 0x68, magnetometerAddress: UInt8? = nil, clock: any MonotonicClock) {
        self.bus = bus
        self.address = address
        self.clock = clock
        magnetometer = AKMagnetometer(bus: bus, address: magnetometerAddress ?? AK09916Registers.address, map: AK09916Registers.map)
        fifoBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: R.fifoCapacityBytes, alignment: 8)
        configuration = IMUConfiguration(
            accelerometerScale: R.accelScales[0], gyroscopeScale: R.gyroScales[0], sampleRate: R.sampleRates[0],
            lowPassBandwidthHz: nil, magnetometerScale: AK09916Registers.fullScale,
            magnetometerRate: AK09916Registers.continuousRates.last)
        decoder.apply(configuration)
    }

    deinit { fifoBuffer.deallocate() }

    // MARK: Banks

    /// Selects `bank` (one write, and only when another bank is selected).
    private func select(_ bank: UInt8) throws(IMUDriverError) {
        guard selectedBank != bank else { return }
        selectedBank = nil  // unknown until the write is acknowledged
        try bus.write(address, R.bankSelect, R.bankSelectValue(bank))
        selectedBank = bank
    }

    private func write(_ register: R.Banked, _ value: UInt8) throws(IMUDriverError) {
        try select(register.bank)
        try bus.write(address, register.address, value)
    }

    /// A bank-0 register (the bank every method leaves selected).
    private func write0(_ register: UInt8, _ value: UInt8) throws(IMUDriverError) {
        try select(0)
        try bus.write(address, register, value)
    }

    private func read0(_ register: UInt8) throws(IMUDriverError) -> UInt8 {
        try select(0)
        return try bus.read(address, register)
    }

    // MARK: Configuration

    public func configure(_ settings: IMUSettings) throws(IMUDriverError) {
        // Whatever bank a previous program left selected, WHO_AM_I is in bank 0.
        selectedBank = nil
        try select(0)
        _ = try model.part.checkIdentity(on: bus, at: address)
        // DS §8.4: DEVICE_RESET restores every register (REG_BANK_SEL to bank 0 too); then
        // wake with CLKSEL = 1 (the gyro's PLL once it runs).
        try bus.write(address, R.powerManagement1, R.powerDeviceReset)
        clock.sleep(seconds: 0.1)
        selectedBank = 0
        try write0(R.powerManagement1, R.clockAuto)

        let accel = R.accelScales.covering(settings.accelerometerRangeG)
        let gyro = R.gyroScales.covering(settings.gyroscopeRangeDegreesPerSecond)
        let rate = R.sampleRates.nearest(settings.sampleRateHz)
        accelDivider = R.accelDivider(for: rate.hertz)
        // Anti-aliasing: the widest low-pass at or below half the sample rate, for each sensor.
        let gyroFilter = R.gyroLowPass.forSampleRate(rate.hertz)
        let accelFilter = R.accelLowPass.forSampleRate(R.accelRateHz(divider: accelDivider))
        try write(R.gyroRateDivider, rate.code)
        try write(R.gyroConfig1, gyroFilter.code << 3 | gyro.code << 1 | R.filterChoice)
        try writeAccelDivider(accelDivider)
        try write(R.accelConfig, accelFilter.code << 3 | accel.code << 1 | R.filterChoice)
        try write0(R.interruptPinConfig, pinConfig(latched: false))  // opens the bypass
        let fieldRate = try magnetometer.configure(rateHz: settings.magnetometerRateHz, model: model, clock: clock)
        configuration = IMUConfiguration(
            accelerometerScale: accel, gyroscopeScale: gyro, sampleRate: rate, lowPassBandwidthHz: gyroFilter.hertz,
            magnetometerScale: AK09916Registers.fullScale, magnetometerRate: fieldRate)
        decoder.apply(configuration)
        fifo.start(at: nil)
        waitForFirstSample()
    }

    private func writeAccelDivider(_ divider: Int) throws(IMUDriverError) {
        try write(R.accelRateDivider1, UInt8(divider >> 8))
        try write(R.accelRateDivider2, UInt8(divider & 0xFF))
    }

    /// INT_PIN_CFG: latched or not, the bypass always open (writing it without BYPASS_EN
    /// would cut the AK09916 off the bus).
    private func pinConfig(latched: Bool) -> UInt8 {
        (latched ? R.interruptLatchedActiveHigh : 0) | R.bypassEnable
    }

    /// DS Table 1–2: gyro start-up 35 ms, accelerometer 20 ms; then two sample periods and one
    /// magnetometer period, so the first read is a measurement.
    private func waitForFirstSample() {
        clock.sleep(seconds: configuration.firstSampleWait(gyroStartUpSeconds: 0.035))
    }

    // MARK: Samples

    public func readSample() throws(IMUDriverError) -> MotionSample {
        var sample = try bus.readSampleSet(address, R.sampleSet, decoder: decoder, clock: clock, temperatureCelsius: R.temperatureCelsius)
        sample.magneticField = try magnetometer.readField()
        return sample
    }

    // MARK: FIFO

    public func startFIFO() throws(IMUDriverError) {
        try write0(R.userControl, 0)
        try write0(R.fifoEnable2, R.fifoAccelAndGyro)
        try write0(R.fifoMode, 0)
        try resetFIFO()
        try write0(R.userControl, R.userFIFOEnable)
        fifo.start(at: clock.now)
    }

    public func stopFIFO() throws(IMUDriverError) {
        try write0(R.fifoEnable2, 0)
        try resetFIFO()
        try write0(R.userControl, 0)
        fifo.start(at: nil)
    }

    /// DS §8.57: FIFO_RESET asserted, then de-asserted (held, it keeps the FIFO empty).
    private func resetFIFO() throws(IMUDriverError) {
        try write0(R.fifoReset, R.fifoOverflowAll)
        try write0(R.fifoReset, 0)
    }

    var fifoRow: InvenSenseFIFO { R.fifo }

    var batchMagnetometer: AKMagnetometer? { magnetometer }

    func restartFIFO() throws(IMUDriverError) -> Int {
        try resetFIFO()
        return 2
    }

    // MARK: Interrupts and power

    public func enableInterrupt(_ source: InterruptSource) throws(IMUDriverError) {
        try write0(R.interruptPinConfig, pinConfig(latched: true))
        switch source {
        case .dataReady:
            try write0(R.interruptEnable1, R.rawDataReady)
        case let .motion(thresholdG, _):
            // Wake-on-motion has no duration (DS §10.12): one sample over the threshold.
            try armWakeOnMotion(thresholdG: thresholdG)
            try write0(R.interruptEnable, R.wakeOnMotionInterrupt)
        }
    }

    public func disableInterrupts() throws(IMUDriverError) {
        try write0(R.interruptEnable, 0)
        try write0(R.interruptEnable1, 0)
    }

    /// DS §10.12–10.13: ACCEL_INTEL_EN with ACCEL_INTEL_MODE_INT = 1 compares each sample with
    /// the previous one against ACCEL_WOM_THR (4 mg per LSB).
    private func armWakeOnMotion(thresholdG: Double) throws(IMUDriverError) {
        let threshold = min(255, max(1, Int((thresholdG / R.wakeOnMotionGPerLSB).rounded())))
        try write(R.wakeOnMotionThreshold, UInt8(threshold))
        try write(R.accelIntelligence, R.accelIntelligenceCompare)
        try select(0)
    }

    /// The low-power watch: gyros and thermometer off, the AK09916 powered down, the
    /// accelerometer duty-cycled (LP_EN, LP_CONFIG ACCEL_CYCLE) at the ACCEL_SMPLRT_DIV rate
    /// nearest `rateHz`, wake-on-motion as the only interrupt.
    public func watchForMotion(thresholdG: Double, durationMilliseconds: Int, rateHz: Double) throws(IMUDriverError) -> Double {
        try write0(R.interruptEnable1, 0)
        try magnetometer.powerDown(clock: clock)
        try write0(R.interruptPinConfig, pinConfig(latched: true))
        let divider = R.accelDivider(for: rateHz)
        try writeAccelDivider(divider)
        try armWakeOnMotion(thresholdG: thresholdG)
        try write0(R.interruptEnable, R.wakeOnMotionInterrupt)
        _ = try read0(R.interruptStatus)  // nothing pending from before the watch
        try write0(R.powerManagement2, R.gyrosOff)
        try write0(R.lowPowerConfig, R.accelCycle)
        try write0(R.powerManagement1, R.powerLowPowerTemperatureOff)
        return R.accelRateHz(divider: divider)
    }

    public func endMotionWatch() throws(IMUDriverError) {
        try write0(R.powerManagement1, R.clockAuto)
        try write0(R.lowPowerConfig, R.lowPowerConfigDefault)
        try write0(R.powerManagement2, 0)
        try write0(R.interruptEnable, 0)
        try write(R.accelIntelligence, 0)
        try writeAccelDivider(accelDivider)
        _ = try read0(R.interruptStatus)  // releases the latched INT pin
        try magnetometer.resume(clock: clock)
        waitForFirstSample()
    }

    /// PWR_MGMT_1 reads LP_EN | TEMP_DIS | CLKSEL = 1 while watching; CLKSEL = 1 alone (or,
    /// after a power cut, SLEEP too: 0x41) otherwise.
    public func isWatchingForMotion() throws(IMUDriverError) -> Bool {
        try read0(R.powerManagement1) == R.powerLowPowerTemperatureOff
    }

    /// One register read: INT_PIN_CFG holds BYPASS_EN from `configure` on, 0 after a reset.
    /// (PWR_MGMT_1 cannot tell: it resets to 0x41, which with SLEEP masked reads like running.)
    public func isConfigured() throws(IMUDriverError) -> Bool {
        let pins = try read0(R.interruptPinConfig)
        guard pins != 0xFF else { throw .implausible(bus: bus.name, address: address, what: "0xff in INT_PIN_CFG") }
        return pins & R.bypassEnable != 0
    }

    public func sleep() throws(IMUDriverError) {
        try magnetometer.powerDown(clock: clock)
        try write0(R.powerManagement1, R.powerSleep | R.clockAuto)
    }

    public func wake() throws(IMUDriverError) {
        try write0(R.powerManagement1, R.clockAuto)
        try magnetometer.resume(clock: clock)
        waitForFirstSample()
    }
}
