import IMUGeometry

/// A register-level ICM-20948 (DS-000189; tables in `ICM20948Registers`): one I²C target at
/// 0x68 or 0x69 with four user banks chosen by REG_BANK_SEL (0x7F in every bank). Samples
/// appear on the gyro's grid (1.1 kHz / (1 + GYRO_SMPLRT_DIV)); the accelerometer keeps its own
/// grid (1.125 kHz / (1 + ACCEL_SMPLRT_DIV)) and holds its last value between its samples; with
/// the gyro off (PWR_MGMT_2) the accelerometer's grid drives data-ready, the FIFO and
/// wake-on-motion (the low-power watch, LP_EN with LP_CONFIG ACCEL_CYCLE).
///
/// Emulated: power-on defaults (asleep, bank 0), DEVICE_RESET, SLEEP, PWR_MGMT_2 sensor
/// disables, TEMP_DIS, rate dividers, FCHOICE and DLPFCFG (bandwidths set the noise), full
/// scales, the data registers (big-endian), the 512-byte FIFO (FIFO_EN_2 sources in register
/// order, FIFO_RST held or pulsed, stream mode dropping the oldest bytes, snapshot mode
/// dropping the newest, the latched 13-bit count, FIFO_R_W without address increment),
/// interrupts (RAW_DATA_0_RDY, FIFO_OVERFLOW, WOM in their three status registers; INT_PIN_CFG
/// level, latch, any-read clear), wake-on-motion against the previous or the initial sample
/// (ACCEL_INTEL_CTRL, ACCEL_WOM_THR), and the I²C bypass the AK09916 sits behind. Not emulated:
/// the DMP, the I²C master (bank 3), self-test and offsets (bank 1), FSYNC, averaging in
/// low-power mode. Assumed (the DS does not say): an empty FIFO reads its last byte again.
public final class ICM20948Emulator: RegisterFileChip, RegisterPointerChip {
    typealias R = ICM20948Registers

    public let interruptPin = InterruptPin(name: "INT1")
    private let input: ChipInputSource
    private let errors: SensorErrors

    /// Bank 0 (identity, data, FIFO, interrupts, power).
    var registers: RegisterFile
    /// Banks 1–3 (index 0 unused).
    private var banks: [[UInt8]] = []
    private var bank: Int = 0
    var pointer: UInt8 = 0
    private var fifo = ByteFIFO(capacity: R.fifoCapacityBytes)
    private var lastFIFOByte: UInt8 = 0
    private var latchedFIFOCount: UInt16 = 0
    private var status: UInt8 = 0, status1: UInt8 = 0, status2: UInt8 = 0

    var lastTime: Double
    private var lastTick: Int64 = 0
    private var lastAccelTick: Int64 = .min
    private var previousAccel: Vector3?
    private var initialAccel: Vector3?

    private static let maximumCatchUpSamples: Int64 = 2048

    public init(input: @escaping ChipInputSource, errors: SensorErrors, whoAmI: UInt8, startTime: Double = 0) {
        self.input = input
        self.errors = errors
        self.lastTime = startTime
        registers = RegisterFile(defaults: R.bank0Defaults, identityRegister: R.whoAmI, identity: whoAmI)
        loadDefaults()
    }

    /// Whether the auxiliary bus is joined to the host bus (the AK09916 answers at 0x0C).
    public var bypassOpen: Bool {
        registers[R.interruptPinConfig] & R.pinBypass != 0 && registers[R.userControl] & R.userI2CMaster == 0
    }

    // MARK: Derived configuration

    private var isAsleep: Bool { registers[R.powerManagement1] & R.powerSleep != 0 }
    private var gyroOn: Bool { registers[R.powerManagement2] & 0x07 != 0x07 }
    private var accelOn: Bool { registers[R.powerManagement2] & 0x38 != 0x38 }
    private var temperatureOn: Bool { registers[R.powerManagement1] & 0x08 == 0 }
    private var gyroConfig: UInt8 { banks[2][Int(R.gyroConfig1)] }
    private var accelConfig: UInt8 { banks[2][Int(R.accelConfig)] }

    /// DS §10.1–10.2: the gyro's output rate and bandwidth.
    private var gyro: (rateHz: Double, bandwidthHz: Double) {
        guard gyroConfig & 0x01 != 0 else { return (R.gyroBypassRateHz, R.gyroBypassHz) }
        return (R.gyroBaseRateHz / (1 + Double(banks[2][Int(R.gyroRateDivider)])), R.gyroLowPassHz[Int(gyroConfig >> 3 & 0x07)])
    }

    /// DS §10.10–10.14: the accelerometer's output rate and bandwidth (the same divider in
    /// the duty-cycled mode, DS §8.3).
    private var accel: (rateHz: Double, bandwidthHz: Double) {
        guard accelConfig & 0x01 != 0 else { return (R.accelBypassRateHz, R.accelBypassHz) }
        let divider = Int(banks[2][Int(R.accelRateDivider1)] & 0x0F) << 8 | Int(banks[2][Int(R.accelRateDivider2)])
        return (R.accelBaseRateHz / Double(1 + divider), R.accelLowPassHz[Int(accelConfig >> 3 & 0x07)])
    }

    /// The grid data-ready and the FIFO follow: the gyro's while it runs, else the accelerometer's.
    public var sampleRateHz: Double {
        if gyroOn { return gyro.rateHz }
        return accelOn ? accel.rateHz : 0
    }

    private var fifoCollecting: Bool {
        registers[R.userControl] & R.userFIFOEnable != 0 && registers[R.fifoEnable2] & 0x1F != 0 && registers[R.fifoReset] & 0x1F == 0
    }

    // MARK: I2CTarget

    public func catchUp(to time: Double) {
        guard time > lastTime else { return }
        defer { lastTime = time }
        let rate = sampleRateHz
        if isAsleep || rate == 0 { return }
        guard let due = SampleGrid.due(after: lastTick, at: time, rateHz: rate, limit: Self.maximumCatchUpSamples) else { return }
        if due.skipped, fifoCollecting { raise(status2: R.fifoOverflow, at: Double(due.first) / rate) }
        for tick in due.first...due.last { produceSample(tick: tick, rate: rate) }
        lastTick = due.last
    }

    /// DS §8.61: FIFO_R_W (bank 0) is a port that does not advance; other registers auto-increment.
    func register(after register: UInt8) -> UInt8 {
        bank == 0 && register == R.fifoReadWrite ? register : (register &+ 1) & 0x7F
    }

    /// A write transaction's first byte: its 7 low bits are the register.
    func register(addressedBy byte: UInt8) -> UInt8 { byte & 0x7F }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count {
            buffer[i] = load(pointer)
            // DS §8.61: FIFO_R_W is read repeatedly in a burst; other registers auto-increment.
            if !(bank == 0 && pointer == R.fifoReadWrite) { pointer = (pointer &+ 1) & 0x7F }
        }
        // DS §8.6 INT_ANYRD_2CLEAR: every status clears on any read.
        if buffer.count > 0, registers[R.interruptPinConfig] & R.pinAnyReadClears != 0 {
            status = 0; status1 = 0; status2 = 0
            updatePin(at: lastTime)
        }
    }

    /// Fills the FIFO with copies of the current sample until it overflows, without moving the
    /// sample grid (the next samples still come at their times).
    public func forceFIFOOverflow() {
        guard fifoCollecting else {
            for _ in 0..<fifo.capacity + 1 where !fifo.push(0) {
                raise(status2: R.fifoOverflow, at: lastTime)
                break
            }
            return
        }
        for _ in 0..<fifo.capacity where !pushFIFOSources() {
            raise(status2: R.fifoOverflow, at: lastTime)
            break
        }
    }

    // MARK: Registers

    func loadDefaults() {
        registers.loadDefaults()
        banks = [[], [UInt8](repeating: 0, count: 128), [UInt8](repeating: 0, count: 128), [UInt8](repeating: 0, count: 128)]
        for (register, value) in R.bank2Defaults { banks[2][Int(register)] = value }
        bank = 0
        pointer = 0
        fifo.removeAll()
        lastFIFOByte = 0
        latchedFIFOCount = 0
        status = 0; status1 = 0; status2 = 0
        previousAccel = nil
        initialAccel = nil
        lastAccelTick = .min
        interruptPin.drive(high: false, at: lastTime)
    }

    private func load(_ register: UInt8) -> UInt8 {
        if register == R.bankSelect { return UInt8(bank) << 4 }
        guard bank == 0 else { return banks[bank][Int(register)] }
        switch register {
        case R.whoAmI:
            return registers.identity
        case R.interruptStatus:
            defer { status = 0; updatePin(at: lastTime) }
            return status
        case R.interruptStatus1:
            defer { status1 = 0; updatePin(at: lastTime) }
            return status1
        case R.interruptStatus2:
            defer { status2 = 0; updatePin(at: lastTime) }
            return status2
        case R.fifoCountHigh:
            // DS §8.59: reading FIFO_COUNTH latches both count registers.
            latchedFIFOCount = UInt16(fifo.count)
            return UInt8(latchedFIFOCount >> 8) & 0x1F
        case R.fifoCountLow:
            return UInt8(latchedFIFOCount & 0xFF)
        case R.fifoReadWrite:
            if let byte = fifo.pop() { lastFIFOByte = byte }
            return lastFIFOByte
        default:
            return registers[register]
        }
    }

    func store(_ value: UInt8, at register: UInt8) {
        let rateBefore = sampleRateHz
        let wasAsleep = isAsleep
        if register == R.bankSelect {
            bank = Int(value >> 4 & 0x03)
            return
        }
        if bank != 0 {
            banks[bank][Int(register)] = value
            if bank == 2 && register == R.accelIntelligence { initialAccel = nil }
        } else {
            switch register {
            case R.powerManagement1 where value & R.powerDeviceReset != 0:
                // DS §8.4: DEVICE_RESET restores every register's default (the bit clears itself).
                loadDefaults()
                return
            case R.fifoReset:
                // DS §8.57: asserted, FIFO_RESET empties the FIFO and keeps it empty until de-asserted.
                if value & 0x1F != 0 { fifo.removeAll() }
                registers[register] = value & 0x1F
            case R.fifoReadWrite:
                if !fifo.push(value) { raise(status2: R.fifoOverflow, at: lastTime) }
            case R.interruptPinConfig:
                registers[register] = value
                updatePin(at: lastTime)
            default:
                guard !R.readOnlyBank0.contains(register) else { return }
                registers[register] = value
            }
        }
        // A new rate or a wake-up starts the grid at the current time.
        if sampleRateHz != rateBefore || (wasAsleep && !isAsleep) {
            let rate = sampleRateHz
            lastTick = rate > 0 ? Int64((lastTime * rate).rounded(.down)) : 0
            lastAccelTick = .min
        }
    }

    // MARK: Sampling

    private func produceSample(tick: Int64, rate: Double) {
        let time = Double(tick) / rate
        let truth = input(time)
        if gyroOn {
            let g = gyro
            let measured = errors.gyro(
                truth.rotationRateRadiansPerSecond, tick: tick, bandwidthHz: min(g.bandwidthHz, rate / 2),
                temperatureCelsius: truth.temperatureCelsius) * (180 / .pi)
            let scale = R.gyroFullScales[Int(gyroConfig >> 1 & 0x03)].lsbPerDegreePerSecond
            put([Raw.int16(measured.x * scale), Raw.int16(measured.y * scale), Raw.int16(measured.z * scale)], at: R.gyroXHigh)
        }
        if accelOn {
            let a = accel
            // On the gyro's grid the accelerometer holds its own latest sample.
            let accelTick = gyroOn ? Int64((time * a.rateHz).rounded(.down)) : tick
            if accelTick != lastAccelTick {
                lastAccelTick = accelTick
                let force = gyroOn ? input(Double(accelTick) / a.rateHz).specificForceG : truth.specificForceG
                let measured = errors.accelerometer(force, tick: accelTick, bandwidthHz: min(a.bandwidthHz, a.rateHz / 2))
                let scale = R.accelFullScales[Int(accelConfig >> 1 & 0x03)].lsbPerG
                put([Raw.int16(measured.x * scale), Raw.int16(measured.y * scale), Raw.int16(measured.z * scale)], at: R.accelXHigh)
                detectWakeOnMotion(measured, at: time)
            }
        }
        if temperatureOn {
            put([Raw.int16((truth.temperatureCelsius - R.temperatureOffsetCelsius) * R.temperatureLSBPerDegree)], at: R.temperatureHigh)
        }
        if fifoCollecting, !pushFIFOSources() {
            raise(status2: R.fifoOverflow, at: time)
        }
        raise(status1: R.rawDataReady, at: time)
    }

    private func put(_ values: [Int16], at first: UInt8) {
        for (i, v) in values.enumerated() {
            let (high, low) = Raw.bigEndian(v)
            registers[Int(first) + 2 * i] = high
            registers[Int(first) + 2 * i + 1] = low
        }
    }

    /// The enabled sources' registers into the FIFO; false when bytes were lost (stream mode
    /// drops the oldest; snapshot mode, FIFO_MODE = 1, stops writing when full).
    private func pushFIFOSources() -> Bool {
        let enabled = registers[R.fifoEnable2]
        let snapshot = registers[R.fifoMode] & 0x1F != 0
        var kept = true
        for source in R.fifoSources where enabled & source.enableBit != 0 {
            for offset in 0..<source.byteCount {
                if snapshot && fifo.count == fifo.capacity { kept = false; continue }
                kept = fifo.push(registers[Int(source.firstRegister) + offset]) && kept
            }
        }
        return kept
    }

    /// DS §10.12–10.13: with ACCEL_INTEL_EN, any axis differing by more than ACCEL_WOM_THR × 4 mg
    /// from the previous sample (ACCEL_INTEL_MODE_INT = 1) or from the first one after enabling
    /// (= 0) raises WOM_INT.
    private func detectWakeOnMotion(_ accel: Vector3, at time: Double) {
        defer { previousAccel = accel }
        let control = banks[2][Int(R.accelIntelligence)]
        guard control & R.intelligenceEnable != 0 else { initialAccel = nil; return }
        if initialAccel == nil { initialAccel = accel }
        guard let reference = control & R.intelligenceCompare != 0 ? previousAccel : initialAccel else { return }
        let change = accel - reference
        let threshold = Double(banks[2][Int(R.wakeOnMotionThreshold)]) * R.wakeOnMotionGPerLSB
        if max(abs(change.x), abs(change.y), abs(change.z)) > threshold {
            raise(status: R.wakeOnMotionInterrupt, at: time)
        }
    }

    // MARK: Interrupts

    private func raise(status bits: UInt8 = 0, status1 bits1: UInt8 = 0, status2 bits2: UInt8 = 0, at time: Double) {
        let newlySet = (status & bits) != bits || (status2 & bits2) != bits2
        status |= bits; status1 |= bits1; status2 |= bits2
        let enabled = bits & registers[R.interruptEnable] | bits1 & registers[R.interruptEnable1] | bits2 & registers[R.interruptEnable2]
        guard enabled != 0 else { return }
        if registers[R.interruptPinConfig] & R.pinLatch != 0 {
            updatePin(at: time)
        } else if newlySet || bits1 != 0 {
            // DS §8.6 INT1_LATCH__EN = 0: a 50 µs pulse per event.
            let activeHigh = registers[R.interruptPinConfig] & R.pinActiveLow == 0
            interruptPin.pulse(activeHigh: activeHigh, at: time, width: R.interruptPulseSeconds)
        }
    }

    /// Latched: the pin is active while an enabled status bit is set; otherwise it idles.
    private func updatePin(at time: Double) {
        let config = registers[R.interruptPinConfig]
        let activeHigh = config & R.pinActiveLow == 0
        let pending = status & registers[R.interruptEnable] | status1 & registers[R.interruptEnable1] | status2 & registers[R.interruptEnable2]
        let active = config & R.pinLatch != 0 && pending != 0
        interruptPin.drive(high: active == activeHigh, at: time)
    }
}
