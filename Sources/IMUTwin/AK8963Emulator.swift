import IMUGeometry

/// A register-level AK8963 (the MPU-9250's magnetometer die; facts in `AK8963Registers`): an I²C
/// target at 0x0C that acknowledges only while its MPU's bypass is open (`reachable`).
///
/// Emulated: WIA, power-down at power-on, CNTL2 soft reset, CNTL1 modes (power-down, single,
/// continuous 8 and 100 Hz, fuse ROM access) and 14/16-bit output (BITM mirrored in ST2), the
/// fuse-ROM ASAX–ASAZ (correct only in fuse ROM access mode), the sensitivity each axis really
/// has (so a driver that skips the adjustment reads the field too small), DRDY and DOR, data
/// protection (once ST1 or a data register has been read, new data wait until ST2 is read),
/// HOFL, its own axes (PS9 §9.1: x = accel y, y = accel x, z = −accel z), auto-increment as in
/// Table 2. Not emulated: self-test, external trigger, I2CDIS, SPI.
public final class AK8963Emulator: RegisterFileChip, AKMagnetometerDie {
    typealias R = AK8963Registers

    private let input: ChipInputSource
    private let errors: SensorErrors
    /// The fuse ROM: each axis's sensitivity adjustment code.
    public let sensitivity: (x: UInt8, y: UInt8, z: UInt8)
    /// Whether the host can reach the die now (its MPU's bypass open).
    public var reachable: () -> Bool = { true }

    var registers: RegisterFile
    var pointer: UInt8 = 0
    var lastTime: Double
    /// When measurements are due, and data protection (a read of ST1 or the data begins it).
    var cycle = AKMeasurementCycle()

    public init(
        input: @escaping ChipInputSource, errors: SensorErrors, whoAmI: UInt8,
        sensitivity: (x: UInt8, y: UInt8, z: UInt8), startTime: Double = 0
    ) {
        self.input = input
        self.errors = errors
        self.sensitivity = sensitivity
        self.lastTime = startTime
        registers = RegisterFile(defaults: [:], identityRegister: R.deviceID, identity: whoAmI)
    }

    public var acknowledges: Bool { reachable() }

    private var mode: UInt8 { registers[R.control1] & 0x0F }
    private var sixteenBit: Bool { registers[R.control1] & R.bit16 != 0 }

    /// Measurements per second in the continuous modes (0 otherwise).
    public var sampleRateHz: Double {
        switch mode {
        case R.modeContinuous1: R.continuous1Hz
        case R.modeContinuous2: R.continuous2Hz
        default: 0
        }
    }

    // MARK: Measurement cycle

    func endSingleMeasurement() { registers[R.control1] &= ~0x0F }

    func noteSkippedMeasurement() { if registers[R.status1] & R.dataReady != 0 { registers[R.status1] |= R.dataOverrun } }

    // MARK: Registers

    func loadDefaults() {
        registers.loadDefaults()
        pointer = 0
        cycle.reset()
    }

    func load(_ register: UInt8) -> UInt8 {
        switch register {
        case R.deviceID:
            return registers.identity
        case R.status1:
            cycle.beginRead()
            return registers[register]
        case R.xLow...R.zHigh:
            cycle.beginRead()
            registers[R.status1] &= ~(R.dataReady | R.dataOverrun)
            return registers[register]
        case R.status2:
            // Reading ST2 ends the data read: DRDY and DOR clear, held data are released.
            let value = registers[register]
            registers[R.status1] &= ~(R.dataReady | R.dataOverrun)
            if let held = cycle.endRead() { show(held.values, overflow: held.overflow) }
            return value
        case R.sensitivityX...R.sensitivityZ:
            // Table 2: readable only in fuse ROM access mode; elsewhere "read data is not correct".
            guard mode == R.modeFuseROM else { return 0 }
            return [sensitivity.x, sensitivity.y, sensitivity.z][Int(register - R.sensitivityX)]
        default:
            return registers[register]
        }
    }

    func register(after register: UInt8) -> UInt8 { R.next(after: register) }

    func store(_ value: UInt8, at register: UInt8) {
        switch register {
        case R.control1:
            registers[register] = value & 0x1F
            cycle.modeWritten(
                at: lastTime, rateHz: sampleRateHz, single: value & 0x0F == R.modeSingle, singleSeconds: R.singleMeasurementSeconds)
        case R.control2:
            if value & R.softReset != 0 { loadDefaults() }  // SRST clears itself
        case R.selfTest, R.i2cDisable:
            registers[register] = value
        default:
            break  // read-only
        }
    }

    // MARK: Measuring

    func measure(at time: Double) {
        let truth = input(time).magneticFieldMicrotesla
        // PS9 §9.1: the die's own axes from the accel/gyro axes.
        let own = Vector3(truth.y, truth.x, -truth.z)
        let tick = Int64((time * 100).rounded(.down))
        let measured = errors.magnetometer(own, tick: tick)
        let lsb = sixteenBit ? R.microteslaPerLSB16Bit : R.microteslaPerLSB14Bit
        let limit = sixteenBit ? R.limit16Bit : R.limit14Bit
        let adjust = [R.adjustment(sensitivity.x), R.adjustment(sensitivity.y), R.adjustment(sensitivity.z)]
        let values = (0..<3).map { Raw.int16(max(-limit, min(limit, measured[$0] / (lsb * adjust[$0])))) }
        let overflow = abs(measured.x) + abs(measured.y) + abs(measured.z) > R.overflowMicrotesla
        if registers[R.status1] & R.dataReady != 0 { registers[R.status1] |= R.dataOverrun }
        if let shown = cycle.measured(values, overflow: overflow) { show(shown.values, overflow: shown.overflow) }
        registers[R.status1] |= R.dataReady
    }

    private func show(_ values: [Int16], overflow: Bool) {
        for (axis, value) in values.enumerated() {
            let (low, high) = Raw.littleEndian(value)
            registers[Int(R.xLow) + 2 * axis] = low
            registers[Int(R.xLow) + 2 * axis + 1] = high
        }
        registers[R.status2] = (overflow ? R.overflow : 0) | (sixteenBit ? R.outputBitMirror : 0)
    }
}
