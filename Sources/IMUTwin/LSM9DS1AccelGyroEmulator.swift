import IMUGeometry

/// The LSM9DS1's accelerometer and gyroscope die (DocID025715 §3, §7; tables in
/// `LSM9DS1Registers`): one I²C target at 0x6A or 0x6B.
///
/// Emulated: Table 21 defaults; gyro+accel at the gyro's ODR, or accel alone at ODR_XL when the
/// gyro is powered down (§3.1); full scales; little-endian data (BLE swaps); 12-bit temperature;
/// STATUS_REG flags; IF_ADD_INC and the burst wrap of §3.3 (with the gyro on, the address goes
/// 0x1D → 0x28 and, after OUT_Z_XL, 0x2D → 0x18; accel only: 0x2D → 0x28); the 32-level FIFO
/// (bypass, FIFO, continuous, continuous-to-FIFO, bypass-to-continuous; FTH, OVRN, FSS,
/// STOP_ON_FTH) read through the output registers, a level being used up when OUT_Z_H_XL (0x2D)
/// is read; the accelerometer interrupt generator (OR/AND, per-axis high/low, duration, LIR_XL);
/// INT1_A/G routing with H_LACTIVE. Not emulated: gyro interrupt generator, INT2, 6D/4D,
/// inactivity, decimation, filters, self-test.
public final class LSM9DS1AccelGyroEmulator: RegisterFileChip, RegisterPointerChip {
    typealias R = LSM9DS1Registers

    public let interruptPin = InterruptPin(name: "INT1_A/G")
    private let input: ChipInputSource
    private let errors: SensorErrors

    // Unchecked: touched only with the board's TwinLock held (the bus's transactions), never by two
    // accesses at once; the dynamic exclusivity check on every register read cost a tenth of the twin.
    @exclusivity(unchecked) var registers: RegisterFile
    @exclusivity(unchecked) var pointer: UInt8 = 0
    @exclusivity(unchecked) var lastTime: Double
    @exclusivity(unchecked) private var lastTick: Int64 = 0

    private struct Level { var gyro: [Int16]; var accel: [Int16] }
    @exclusivity(unchecked) private var latest = Level(gyro: [0, 0, 0], accel: [0, 0, 0])
    @exclusivity(unchecked) private var temperatureRaw: Int16 = 0
    @exclusivity(unchecked) private var fifo: [Level] = []
    @exclusivity(unchecked) private var overrun = false
    @exclusivity(unchecked) private var status: UInt8 = 0
    @exclusivity(unchecked) private var interruptActive = false
    @exclusivity(unchecked) private var interruptEvents: UInt8 = 0
    @exclusivity(unchecked) private var samplesOverThreshold = 0
    /// The interrupt generator's high-pass filter state (HPIS1), in LSB.
    @exclusivity(unchecked) private var highPassed = Vector3.zero
    @exclusivity(unchecked) private var previousAccel: Vector3?

    private static let maximumCatchUpSamples: Int64 = 256

    public init(input: @escaping ChipInputSource, errors: SensorErrors, whoAmI: UInt8, startTime: Double = 0) {
        self.input = input
        self.errors = errors
        self.lastTime = startTime
        registers = RegisterFile(defaults: R.accelGyroDefaults, identityRegister: R.whoAmI, identity: whoAmI)
        loadDefaults()
    }

    // MARK: Configuration

    private var gyroRateHz: Double { R.gyroRatesHz[Int(registers[Int(R.control1G)] >> 5)] }
    private var accelOnlyRateHz: Double { R.accelOnlyRatesHz[Int(registers[Int(R.control6XL)] >> 5)] }
    private var gyroOn: Bool { gyroRateHz > 0 }

    /// Samples per second now: the gyro's ODR when it is on (the accelerometer follows it),
    /// ODR_XL when only the accelerometer is on, 0 when both are powered down.
    public var sampleRateHz: Double { gyroOn ? gyroRateHz : accelOnlyRateHz }

    private var fifoMode: R.FIFOMode? {
        guard registers[Int(R.control9)] & 0x02 != 0 else { return nil }
        return R.FIFOMode(rawValue: registers[Int(R.fifoControl)] >> 5).flatMap { $0 == .bypass ? nil : $0 }
    }

    private var fifoThreshold: Int { Int(registers[Int(R.fifoControl)] & 0x1F) }
    private var fifoLimit: Int { registers[Int(R.control9)] & 0x01 != 0 ? fifoThreshold + 1 : R.fifoDepth }
    private var bigEndian: Bool { registers[Int(R.control8)] & R.bigEndian != 0 }

    // MARK: I2CTarget

    public func catchUp(to time: Double) {
        guard time > lastTime else { return }
        defer { lastTime = time }
        let rate = sampleRateHz
        guard rate > 0 else { return }
        guard let due = SampleGrid.due(after: lastTick, at: time, rateHz: rate, limit: Self.maximumCatchUpSamples) else { return }
        if due.skipped, fifoMode != nil { overrun = overrun || fifoMode == .continuous }
        for tick in due.first...due.last { produceSample(tick: tick, rate: rate) }
        lastTick = due.last
    }

    /// §5.1.1: the 7 LSBs are the address; CTRL_REG8's IF_ADD_INC (not the MSB) decides increment.
    func register(after register: UInt8) -> UInt8 {
        registers[Int(R.control8)] & R.addressIncrement != 0 ? (register &+ 1) & 0x7F : register
    }

    /// A write transaction's first byte: its 7 low bits are the register.
    func register(addressedBy byte: UInt8) -> UInt8 { byte & 0x7F }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count {
            let register = pointer
            buffer[i] = load(register)
            if registers[Int(R.control8)] & R.addressIncrement != 0 { pointer = next(after: register) }
        }
        updatePin(at: lastTime)
    }

    public func forceFIFOOverflow() {
        guard let mode = fifoMode else { return }
        while fifo.count < fifoLimit { fifo.append(latest) }
        if mode != .fifo {
            fifo.removeFirst()
            fifo.append(latest)
            overrun = true
        }
        updatePin(at: lastTime)
    }

    /// §3.3, Figures 6 and 7: with the gyro on, a burst goes OUT_X_G … OUT_Z_G, OUT_X_XL …
    /// OUT_Z_XL and starts again at OUT_X_G; with the accelerometer alone it cycles OUT_X_XL …
    /// OUT_Z_XL. Everything else increments by one.
    private func next(after register: UInt8) -> UInt8 {
        if register == R.accelZHigh { return gyroOn ? R.gyroXLow : R.accelXLow }
        if register == R.gyroZHigh && gyroOn { return R.accelXLow }
        return (register &+ 1) & 0x7F
    }

    // MARK: Registers

    func loadDefaults() {
        registers.loadDefaults()
        pointer = 0
        latest = Level(gyro: [0, 0, 0], accel: [0, 0, 0])
        temperatureRaw = 0
        fifo = []
        overrun = false
        status = 0
        interruptActive = false
        interruptEvents = 0
        samplesOverThreshold = 0
        highPassed = .zero
        previousAccel = nil
        interruptPin.drive(high: false, at: lastTime)
    }

    /// The set the output registers show: the oldest unread FIFO level while the FIFO holds
    /// data, else the newest sample.
    /// (An empty FIFO first: that is the usual case, and cheaper to see than the FIFO's mode.)
    private var shown: Level { fifo.isEmpty || fifoMode == nil ? latest : fifo[0] }

    private func pair(_ value: Int16, high: Bool) -> UInt8 { Raw.byte(value, high: high, bigEndian: bigEndian) }

    private func load(_ register: UInt8) -> UInt8 {
        switch register {
        case R.whoAmI:
            return registers.identity
        case R.temperatureLow, R.temperatureLow + 1:
            status &= ~R.statusTDA
            return pair(temperatureRaw, high: register == R.temperatureLow + 1)
        case R.statusA, R.statusB:
            return status | (interruptActive ? R.statusIGXL : 0)
        case R.gyroXLow...R.gyroZHigh:
            status &= ~R.statusGDA
            let offset = Int(register - R.gyroXLow)
            return pair(shown.gyro[offset / 2], high: offset % 2 == 1)
        case R.accelXLow...R.accelZHigh:
            status &= ~R.statusXLDA
            let offset = Int(register - R.accelXLow)
            let byte = pair(shown.accel[offset / 2], high: offset % 2 == 1)
            // Reading the last output byte uses up the FIFO level (Figure 7: read #1 … read #n).
            if register == R.accelZHigh, !fifo.isEmpty, fifoMode != nil { fifo.removeFirst() }
            return byte
        case R.interruptSourceXL:
            let value = interruptActive ? 0x40 | interruptEvents : 0
            if registers[Int(R.control4)] & 0x02 != 0 { interruptActive = false }
            return value
        case R.fifoSource:
            let count = fifo.count
            let thresholdReached = fifoThreshold > 0 && count >= fifoThreshold
            return (thresholdReached ? 0x80 : 0) | (overrun ? 0x40 : 0) | UInt8(min(count, 32))
        default:
            return registers[Int(register)]
        }
    }

    func store(_ value: UInt8, at register: UInt8) {
        guard R.accelGyroWritable.contains(register) else { return }
        let rateBefore = sampleRateHz
        registers[Int(register)] = value
        switch register {
        case R.control8:
            if value & R.softwareReset != 0 {
                loadDefaults()
                return
            }
            registers[Int(register)] = value & ~R.boot
        case R.fifoControl:
            // §3.5.2: selecting bypass resets the FIFO.
            if value >> 5 == R.FIFOMode.bypass.rawValue {
                fifo = []
                overrun = false
            }
        default:
            break
        }
        if sampleRateHz != rateBefore, sampleRateHz > 0 {
            lastTick = Int64((lastTime * sampleRateHz).rounded(.down))
        }
        updatePin(at: lastTime)
    }

    // MARK: Sampling

    private func produceSample(tick: Int64, rate: Double) {
        let time = Double(tick) / rate
        let truth = input(time)
        let bandwidth = rate / 2
        let accel = errors.accelerometer(truth.specificForceG, tick: tick, bandwidthHz: bandwidth)
        let accelScale = R.accelFullScales[Int((registers[Int(R.control6XL)] >> 3) & 0x03)]
        let accelLSB = 1000 / accelScale.milligPerLSB
        latest.accel = [Raw.int16(accel.x * accelLSB), Raw.int16(accel.y * accelLSB), Raw.int16(accel.z * accelLSB)]
        status |= R.statusXLDA | R.statusTDA
        if gyroOn {
            let gyro = errors.gyro(
                truth.rotationRateRadiansPerSecond, tick: tick, bandwidthHz: bandwidth, temperatureCelsius: truth.temperatureCelsius) * (180 / .pi)
            let gyroScale = R.gyroFullScales[Int((registers[Int(R.control1G)] >> 3) & 0x03)]
            let gyroLSB = 1000 / gyroScale.millidegreesPerSecondPerLSB
            latest.gyro = [Raw.int16(gyro.x * gyroLSB), Raw.int16(gyro.y * gyroLSB), Raw.int16(gyro.z * gyroLSB)]
            status |= R.statusGDA
        }
        // Table 59: 12-bit two's complement, sign-extended into 16 bits.
        let t = ((truth.temperatureCelsius - R.temperatureZeroCelsius) * R.temperatureLSBPerDegree).rounded()
        temperatureRaw = Int16(max(-2048, min(2047, t)))
        evaluateInterruptGenerator()
        storeInFIFO()
        updatePin(at: time)
    }

    private func storeInFIFO() {
        guard let mode = fifoMode else { return }
        let effective: R.FIFOMode
        switch mode {
        case .continuousToFIFO: effective = interruptActive ? .fifo : .continuous
        case .bypassToContinuous:
            guard interruptActive else {
                fifo = []
                return
            }
            effective = .continuous
        default: effective = mode
        }
        if fifo.count >= fifoLimit {
            // §3.5.2: FIFO mode stops collecting when full; §3.5.3: continuous overwrites the oldest.
            guard effective == .continuous else { return }
            fifo.removeFirst()
            overrun = true
        }
        fifo.append(latest)
    }

    /// §7.3–7.7: per-axis high/low events against the thresholds, OR or AND combined, held for
    /// DUR_XL samples before IA_XL rises; latched until INT_GEN_SRC_XL is read when LIR_XL is set.
    private func evaluateInterruptGenerator() {
        let config = registers[Int(R.interruptGeneratorConfigurationXL)]
        let enabled = config & 0x3F
        guard enabled != 0 else {
            if registers[Int(R.control4)] & 0x02 == 0 { interruptActive = false }
            return
        }
        let seen = interruptInput()
        var events: UInt8 = 0
        for axis in 0..<3 {
            let threshold = Int(registers[Int(R.interruptThresholdXL) + axis]) * R.accelThresholdLSBPerStep
            let magnitude = Int(abs(seen[axis]).rounded())
            if magnitude > threshold { events |= 0x02 << (2 * axis) }
            if magnitude < threshold { events |= 0x01 << (2 * axis) }
        }
        let matched = events & enabled
        let condition = config & 0x80 != 0 ? matched == enabled : matched != 0
        samplesOverThreshold = condition ? samplesOverThreshold + 1 : 0
        let duration = Int(registers[Int(R.interruptDurationXL)] & 0x7F)
        let fires = condition && samplesOverThreshold > duration
        let latched = registers[Int(R.control4)] & 0x02 != 0
        if fires {
            interruptActive = true
            interruptEvents = matched
        } else if !latched {
            interruptActive = false
        }
    }

    /// What the interrupt generator compares: the output, or with HPIS1 (§7.25) the output
    /// through a first-order high-pass at ODR / divisor (DCF, Table 71), which takes gravity out.
    private func interruptInput() -> Vector3 {
        let accel = Vector3(Double(latest.accel[0]), Double(latest.accel[1]), Double(latest.accel[2]))
        let control7 = registers[Int(R.control7XL)]
        guard control7 & R.highPassForInterrupt != 0, let previous = previousAccel else {
            previousAccel = accel
            if control7 & R.highPassForInterrupt != 0 { return .zero }
            return accel
        }
        previousAccel = accel
        let rate = max(sampleRateHz, 1)
        let cutoff = rate / R.highPassCutoffDivisors[Int((control7 >> 5) & 0x03)]
        let rc = 1 / (2 * .pi * cutoff)
        let alpha = rc / (rc + 1 / rate)
        highPassed = alpha * (highPassed + accel - previous)
        return highPassed
    }

    /// INT1_A/G: the OR of the sources INT1_CTRL routes to it, at the H_LACTIVE polarity.
    private func updatePin(at time: Double) {
        let routing = registers[Int(R.int1Control)]
        var active = false
        if routing & R.int1DataReadyXL != 0 && status & R.statusXLDA != 0 { active = true }
        if routing & R.int1DataReadyG != 0 && status & R.statusGDA != 0 { active = true }
        if routing & R.int1IGXL != 0 && interruptActive { active = true }
        if routing & R.int1Threshold != 0 && fifoThreshold > 0 && fifo.count >= fifoThreshold { active = true }
        if routing & R.int1Overrun != 0 && overrun { active = true }
        if routing & R.int1FSS5 != 0 && fifo.count >= R.fifoDepth { active = true }
        let activeLow = registers[Int(R.control8)] & R.activeLow != 0
        interruptPin.drive(high: active != activeLow, at: time)
    }
}
