import IMUGeometry

/// A register-level AK09916 (the ICM-20948's magnetometer die; facts in `AK09916Registers`):
/// an I²C target at 0x0C that acknowledges only while its ICM's bypass is open (`reachable`).
///
/// Emulated: WIA1/WIA2, power-down at power-on, CNTL3 soft reset, CNTL2 modes (power-down,
/// single, continuous 10/20/50/100 Hz), 16-bit output, DRDY and DOR (cleared by reading a data
/// register or ST2), data protection (once a data register has been read, new data wait until
/// ST2 is read), HOFL, its own axes (DS §11: x = accel x, y = −accel y, z = −accel z),
/// auto-increment as in DS Table 20. Not emulated: self-test, TS1/TS2.
public final class AK09916Emulator: AKMagnetometerDie {
    typealias R = AK09916Registers

    private let input: ChipInputSource
    private let errors: SensorErrors
    private let whoAmI: UInt8
    /// What WIA2 reads instead, until the next power-on (a fault: another part after a replug).
    private var identityOverride: UInt8?
    /// Whether the host can reach the die now (its ICM's bypass open).
    public var reachable: () -> Bool = { true }

    private var registers = [UInt8](repeating: 0, count: 0x40)
    var pointer: UInt8 = 0
    var lastTime: Double
    /// When measurements are due, and data protection (a read of the data begins it).
    var cycle = AKMeasurementCycle()

    public init(input: @escaping ChipInputSource, errors: SensorErrors, whoAmI: UInt8, startTime: Double = 0) {
        self.input = input
        self.errors = errors
        self.whoAmI = whoAmI
        self.lastTime = startTime
        reset()
    }

    public var acknowledges: Bool { reachable() }

    private var mode: UInt8 { registers[Int(R.control2)] & 0x1F }

    /// Measurements per second in the continuous modes (0 otherwise).
    public var sampleRateHz: Double { R.continuousRatesHz[mode] ?? 0 }

    // MARK: Measurement cycle

    func endSingleMeasurement() { registers[Int(R.control2)] = 0 }

    func noteSkippedMeasurement() { if registers[Int(R.status1)] & R.dataReady != 0 { registers[Int(R.status1)] |= R.dataOverrun } }

    public func powerOnReset(at time: Double) {
        lastTime = time
        identityOverride = nil
        reset()
    }

    public func overrideIdentity(_ value: UInt8?) {
        identityOverride = value
    }

    // MARK: Registers

    private func reset() {
        registers = [UInt8](repeating: 0, count: 0x40)
        registers[Int(R.companyID)] = 0x48
        registers[Int(R.deviceID)] = whoAmI
        pointer = 0
        cycle.reset()
    }

    func load(_ register: UInt8) -> UInt8 {
        guard Int(register) < registers.count else { return 0 }
        switch register {
        case R.deviceID:
            return identityOverride ?? whoAmI
        case R.xLow...R.dummy:
            // DS §13.4: reading a data register starts a data read, which ST2 ends.
            cycle.beginRead()
            registers[Int(R.status1)] &= ~(R.dataReady | R.dataOverrun)
            return registers[Int(register)]
        case R.status2:
            let value = registers[Int(register)]
            registers[Int(R.status1)] &= ~(R.dataReady | R.dataOverrun)
            if let held = cycle.endRead() { show(held.values, overflow: held.overflow) }
            return value
        default:
            return registers[Int(register)]
        }
    }

    func register(after register: UInt8) -> UInt8 { R.next(after: register) }

    func store(_ value: UInt8, at register: UInt8) {
        switch register {
        case R.control2:
            registers[Int(register)] = value & 0x1F
            cycle.modeWritten(
                at: lastTime, rateHz: sampleRateHz, single: value & 0x1F == R.modeSingle, singleSeconds: R.singleMeasurementSeconds)
        case R.control3:
            if value & R.softReset != 0 { reset() }  // SRST clears itself
        default:
            break  // read-only (TS1/TS2 are not to be accessed)
        }
    }

    // MARK: Measuring

    func measure(at time: Double) {
        let truth = input(time).magneticFieldMicrotesla
        // DS §11: the die's own axes from the accel/gyro axes.
        let own = R.axesInAccelGyroFrame.inverse.apply(truth)
        let measured = errors.magnetometer(own, tick: Int64((time * 100).rounded(.down)))
        let values = (0..<3).map { Raw.int16(max(-R.limit, min(R.limit, measured[$0] / R.microteslaPerLSB))) }
        let overflow = abs(measured.x) + abs(measured.y) + abs(measured.z) > R.overflowMicrotesla
        if registers[Int(R.status1)] & R.dataReady != 0 { registers[Int(R.status1)] |= R.dataOverrun }
        if let shown = cycle.measured(values, overflow: overflow) { show(shown.values, overflow: shown.overflow) }
        registers[Int(R.status1)] |= R.dataReady
    }

    private func show(_ values: [Int16], overflow: Bool) {
        for (axis, value) in values.enumerated() {
            let (low, high) = Raw.littleEndian(value)
            registers[Int(R.xLow) + 2 * axis] = low
            registers[Int(R.xLow) + 2 * axis + 1] = high
        }
        registers[Int(R.status2)] = overflow ? R.overflow : 0
    }
}
