import IMUGeometry

/// An LSM6DS3 / LSM6DS3TR-C / LSM6DSL / LSM6DSOX accelerometer + gyroscope (tables in
/// `LSM6DSxRegisters`, the parts' differences in `LSM6DSxTwinMap`): one I²C target at 0x6A or 0x6B.
///
/// Emulated: defaults, SW_RESET; accel and gyro ODR and full scales (FS_125 too); low-power
/// accelerometer (XL_HM_MODE); little-endian outputs (BLE swaps) with IF_INC; the temperature at
/// the part's scale; STATUS_REG flags, each cleared by reading its sensor's outputs; the pattern
/// FIFO (gyro and accel words, bypass / FIFO / continuous, OVER_RUN, FIFO_PATTERN) or the tagged
/// FIFO (gyro and accel entries with TAG_CNT, FIFO_OVR_IA), read in a burst that wraps at the
/// FIFO's output registers as ST's drivers rely on; the wake-up detector on the slope of the
/// acceleration (WK_THS, WAKE_DUR, LIR, INTERRUPTS_ENABLE where the part has it) and
/// WAKE_UP_SRC; INT1 from DRDY_XL, DRDY_G and MD1_CFG's INT1_WU, with H_LACTIVE. Not emulated:
/// decimation and FIFO rates other than the ODR (the sample clock is the accelerometer's ODR,
/// or the gyro's alone), filters beyond the noise bandwidth (ODR / 2), tap, 6D, free-fall,
/// activity, pedometer, the machine-learning core, INT2, the sensor hub, the high-pass choice
/// (SLOPE_FDS), low-power noise.
public final class LSM6DSxEmulator: RegisterFileChip, RegisterPointerChip {
    typealias R = LSM6DSxRegisters

    public let interruptPin = InterruptPin(name: "INT1")
    private let input: ChipInputSource
    private let errors: SensorErrors
    private let map: LSM6DSxTwinMap
    var registers: RegisterFile
    var pointer: UInt8 = 0
    var lastTime: Double
    private var lastTick: Int64 = 0

    private var gyro: [Int16] = [0, 0, 0]
    private var accel: [Int16] = [0, 0, 0]
    private var temperatureRaw: Int16 = 0
    private var status: UInt8 = 0
    /// Pattern FIFO: 16-bit words; tagged FIFO: (tag, 6 bytes) entries.
    private var words: [Int16] = []
    private var entries: [(tag: UInt8, data: [UInt8])] = []
    private var patternIndex = 0
    private var tagCounter: UInt8 = 0
    private var overrun = false
    private var wakeUpActive = false
    private var wakeUpAxes: UInt8 = 0
    private var samplesOverThreshold = 0
    private var previousAccelG: Vector3?

    /// A gap longer than the FIFO holds produces only what the FIFO can keep (and the overrun).
    private var maximumCatchUpSamples: Int64 {
        switch map.fifo {
        case .pattern(let words, _): Int64(words / 6 + 1)
        case .tagged(let entries): Int64(entries / 2 + 1)
        }
    }

    public init(input: @escaping ChipInputSource, errors: SensorErrors, map: LSM6DSxTwinMap, whoAmI: UInt8, startTime: Double = 0) {
        self.input = input
        self.errors = errors
        self.map = map
        self.lastTime = startTime
        registers = RegisterFile(defaults: R.defaults, identityRegister: R.whoAmI, identity: whoAmI)
        loadDefaults()
    }

    // MARK: Configuration

    private var lowPower: Bool { registers[UInt8(0x15)] & 0x10 != 0 }
    private var accelRateHz: Double { R.rateHz(code: registers[R.control1XL] >> 4, lowPower: lowPower) }
    private var gyroRateHz: Double { R.rateHz(code: registers[R.control2G] >> 4, lowPower: false) }

    /// Samples per second: the accelerometer's ODR, or the gyro's when it runs alone.
    public var sampleRateHz: Double { accelRateHz > 0 ? accelRateHz : gyroRateHz }

    /// FIFO_MODE: FIFO_CTRL5 (pattern) or FIFO_CTRL4 (tagged), both at 0x0A, bits 2:0.
    private var fifoMode: UInt8 { registers[UInt8(0x0A)] & 0x07 }

    /// Whether the FIFO collects gyro / accel data.
    private var fifoBatches: (gyro: Bool, accel: Bool) {
        switch map.fifo {
        case .pattern:
            let decimation = registers[UInt8(0x08)]
            let on = fifoMode != 0 && registers[UInt8(0x0A)] & 0x78 != 0
            return (on && decimation & 0x38 != 0, on && decimation & 0x07 != 0)
        case .tagged:
            let rates = registers[UInt8(0x09)]
            return (fifoMode != 0 && rates & 0xF0 != 0, fifoMode != 0 && rates & 0x0F != 0)
        }
    }

    private var bigEndian: Bool { registers[R.control3] & R.bigEndian != 0 }
    private var latched: Bool { registers[map.latchRegister] & 0x01 != 0 }
    private var wakeUpEnabled: Bool {
        guard registers[R.wakeUpThreshold] & 0x3F != 0 else { return false }
        guard let enable = map.interruptsEnableRegister else { return true }
        return registers[enable] & 0x80 != 0
    }

    // MARK: I2CTarget

    public func catchUp(to time: Double) {
        guard time > lastTime else { return }
        defer { lastTime = time }
        let rate = sampleRateHz
        guard rate > 0 else { return }
        guard let due = SampleGrid.due(after: lastTick, at: time, rateHz: rate, limit: maximumCatchUpSamples) else { return }
        if due.skipped, fifoMode == 0x06 { overrun = true }
        for tick in due.first...due.last { produceSample(tick: tick, rate: rate) }
        lastTick = due.last
    }

    /// CTRL3_C IF_INC decides whether a burst moves on.
    func register(after register: UInt8) -> UInt8 {
        registers[R.control3] & R.addressIncrement != 0 ? (register &+ 1) & 0x7F : register
    }

    /// A write transaction's first byte: its 7 low bits are the register.
    func register(addressedBy byte: UInt8) -> UInt8 { byte & 0x7F }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count {
            let register = pointer
            buffer[i] = load(register)
            if registers[R.control3] & R.addressIncrement != 0 { pointer = next(after: register) }
        }
        updatePin(at: lastTime)
    }

    public func forceFIFOOverflow() {
        guard fifoMode != 0 else { return }
        while !fifoFull { pushSample() }
        if fifoMode == 0x06 {
            pushSample()
            overrun = true
        }
        updatePin(at: lastTime)
    }

    /// Reading the FIFO's output registers wraps to their start (ST's drivers read a whole
    /// batch in one burst from there); everything else increments by one.
    private func next(after register: UInt8) -> UInt8 {
        switch (map.fifo, register) {
        case (.pattern, 0x3F): 0x3E
        case (.tagged, 0x7E): 0x78
        default: (register &+ 1) & 0x7F
        }
    }

    // MARK: Registers

    func loadDefaults() {
        registers.loadDefaults()
        pointer = 0
        gyro = [0, 0, 0]
        accel = [0, 0, 0]
        temperatureRaw = 0
        status = 0
        resetFIFO()
        wakeUpActive = false
        wakeUpAxes = 0
        samplesOverThreshold = 0
        previousAccelG = nil
        interruptPin.drive(high: false, at: lastTime)
    }

    private func resetFIFO() {
        words = []
        entries = []
        patternIndex = 0
        tagCounter = 0
        overrun = false
    }

    private func byte(_ value: Int16, high: Bool) -> UInt8 { Raw.byte(value, high: high, bigEndian: bigEndian) }

    private func load(_ register: UInt8) -> UInt8 {
        switch register {
        case R.whoAmI:
            return registers.identity
        case R.status:
            return status
        case R.temperatureLow, R.temperatureLow + 1:
            status &= ~R.statusTDA
            return byte(temperatureRaw, high: register == R.temperatureLow + 1)
        case R.gyroXLow..<R.accelXLow:
            status &= ~R.statusGDA
            let offset = Int(register - R.gyroXLow)
            return byte(gyro[offset / 2], high: offset % 2 == 1)
        case R.accelXLow...R.accelZHigh:
            status &= ~R.statusXLDA
            let offset = Int(register - R.accelXLow)
            return byte(accel[offset / 2], high: offset % 2 == 1)
        case R.wakeUpSource:
            let value = wakeUpActive ? 0x08 | wakeUpAxes : 0
            if latched { wakeUpActive = false }
            return value
        case R.fifoStatus1...(R.fifoStatus1 + 3):
            return fifoStatus(Int(register - R.fifoStatus1))
        case 0x3E, 0x3F:
            guard case .pattern = map.fifo, let word = words.first else { return 0 }
            if register == 0x3F {
                // OVER_RUN says the FIFO is full and overwriting: reading makes room.
                overrun = false
                words.removeFirst()
                patternIndex = (patternIndex + 1) % 6
            }
            return byte(word, high: register == 0x3F)
        case 0x78...0x7E:
            guard case .tagged = map.fifo, let entry = entries.first else { return 0 }
            if register == 0x7E {
                overrun = false  // FIFO_OVR_IA: full and overwriting, until read makes room
                entries.removeFirst()
            }
            return register == 0x78 ? entry.tag : entry.data[Int(register - 0x79)]
        default:
            return registers[register]
        }
    }

    private var fifoCount: Int {
        switch map.fifo {
        case .pattern: words.count
        case .tagged: entries.count
        }
    }

    private var fifoFull: Bool {
        switch map.fifo {
        case .pattern(let capacity, _): words.count + 6 > capacity
        case .tagged(let capacity): entries.count + 2 > capacity
        }
    }

    /// FIFO_STATUS1…4 (DSL §9.47–9.50) or FIFO_STATUS1…2 (DSOX §9.47–9.48).
    private func fifoStatus(_ index: Int) -> UInt8 {
        let count = fifoCount
        switch (map.fifo, index) {
        case (_, 0): return UInt8(count & 0xFF)
        case (.pattern(_, let mask), 1):
            return UInt8(count >> 8) & mask | (overrun ? 0x40 : 0) | (fifoFull ? 0x20 : 0) | (count == 0 ? 0x10 : 0)
        case (.tagged, 1):
            return UInt8(count >> 8) & 0x03 | (overrun ? 0x40 : 0) | (fifoFull ? 0x20 : 0)
        case (.pattern, 2): return UInt8(patternIndex & 0xFF)
        case (.pattern, 3): return UInt8(patternIndex >> 8)
        default: return registers[R.fifoStatus1 + UInt8(index)]
        }
    }

    func store(_ value: UInt8, at register: UInt8) {
        guard R.writable.contains(register) else { return }
        let rateBefore = sampleRateHz
        registers[register] = value
        if register == R.control3 {
            if value & R.softwareReset != 0 {
                loadDefaults()
                return
            }
            registers[register] = value & ~0x80  // BOOT clears itself
        }
        // Bypass mode empties the FIFO (DSL §8.3, DSOX §6.5.1).
        if register == 0x0A, fifoMode == 0 { resetFIFO() }
        if sampleRateHz != rateBefore, sampleRateHz > 0 {
            lastTick = Int64((lastTime * sampleRateHz).rounded(.down))
            previousAccelG = nil
        }
        updatePin(at: lastTime)
    }

    // MARK: Sampling

    private func produceSample(tick: Int64, rate: Double) {
        let time = Double(tick) / rate
        let truth = input(time)
        let bandwidth = rate / 2
        if accelRateHz > 0 {
            let scale = Int((registers[R.control1XL] >> 2) & 0x03)
            let lsbPerG = 1000 / R.accelMilligPerLSB[scale]
            let measured = errors.accelerometer(truth.specificForceG, tick: tick, bandwidthHz: bandwidth)
            accel = [Raw.int16(measured.x * lsbPerG), Raw.int16(measured.y * lsbPerG), Raw.int16(measured.z * lsbPerG)]
            status |= R.statusXLDA
            evaluateWakeUp(range: R.accelRangeG[scale], milligPerLSB: R.accelMilligPerLSB[scale])
        }
        if gyroRateHz > 0 {
            let control = registers[R.control2G]
            let mdps = control & 0x02 != 0 ? R.gyro125MillidegreesPerSecondPerLSB : R.gyroMillidegreesPerSecondPerLSB[Int((control >> 2) & 0x03)]
            let measured = errors.gyro(
                truth.rotationRateRadiansPerSecond, tick: tick, bandwidthHz: bandwidth,
                temperatureCelsius: truth.temperatureCelsius) * (180 / .pi)
            let lsb = 1000 / mdps
            gyro = [Raw.int16(measured.x * lsb), Raw.int16(measured.y * lsb), Raw.int16(measured.z * lsb)]
            status |= R.statusGDA
        }
        temperatureRaw = Raw.int16((truth.temperatureCelsius - 25) * map.temperatureLSBPerDegree)
        status |= R.statusTDA
        if fifoMode != 0 {
            if fifoFull {
                // FIFO mode stops when full; continuous overwrites the oldest set (DSL §8.3–8.4).
                if fifoMode == 0x06 {
                    pushSample()
                    overrun = true
                }
            } else {
                pushSample()
            }
        }
        updatePin(at: time)
    }

    /// Appends the current sample to the FIFO, dropping the oldest set when it is full.
    private func pushSample() {
        let batches = fifoBatches
        switch map.fifo {
        case .pattern(let capacity, _):
            var set: [Int16] = []
            if batches.gyro { set += gyro }
            if batches.accel { set += accel }
            if words.count + set.count > capacity { words.removeFirst(min(words.count, set.count)) }
            words += set
        case .tagged(let capacity):
            func entry(_ sensor: UInt8, _ values: [Int16]) -> (tag: UInt8, data: [UInt8]) {
                var tag = sensor << 3 | (tagCounter & 0x03) << 1
                // TAG_PARITY: the tag byte's parity made even (DSOX §9.76).
                if tag.nonzeroBitCount % 2 == 1 { tag |= 1 }
                return (tag, values.flatMap { v -> [UInt8] in let (l, h) = Raw.littleEndian(v); return [l, h] })
            }
            var new: [(tag: UInt8, data: [UInt8])] = []
            if batches.gyro { new.append(entry(0x01, gyro)) }
            if batches.accel { new.append(entry(0x02, accel)) }
            if entries.count + new.count > capacity { entries.removeFirst(min(entries.count, new.count)) }
            entries += new
            tagCounter &+= 1
        }
    }

    /// The wake-up detector (DSL §9.74–9.75, AN5040 §5.4): the slope filter's output
    /// (a[n] − a[n−1]) / 2 on any axis beyond WK_THS × FS / 64 for more than WAKE_DUR samples
    /// sets WU_IA; latched (LIR) until WAKE_UP_SRC is read, else cleared when the slope falls.
    private func evaluateWakeUp(range: Double, milligPerLSB: Double) {
        let now = Vector3(Double(accel[0]), Double(accel[1]), Double(accel[2])) * (milligPerLSB / 1000)
        defer { previousAccelG = now }
        guard wakeUpEnabled, let previous = previousAccelG else {
            if !latched { wakeUpActive = false }
            return
        }
        let slope = (now - previous) * 0.5
        let threshold = Double(registers[R.wakeUpThreshold] & 0x3F) * range / 64
        var axes: UInt8 = 0
        if abs(slope.x) > threshold { axes |= 0x04 }
        if abs(slope.y) > threshold { axes |= 0x02 }
        if abs(slope.z) > threshold { axes |= 0x01 }
        samplesOverThreshold = axes != 0 ? samplesOverThreshold + 1 : 0
        let duration = Int((registers[R.wakeUpDuration] >> 5) & 0x03)
        if axes != 0 && samplesOverThreshold > duration {
            wakeUpActive = true
            wakeUpAxes = axes
        } else if !latched {
            wakeUpActive = false
        }
    }

    /// INT1: the OR of the data-ready and wake-up sources routed to it, at H_LACTIVE's polarity.
    private func updatePin(at time: Double) {
        let routing = registers[R.int1Control]
        var active = false
        if routing & 0x01 != 0 && status & R.statusXLDA != 0 { active = true }
        if routing & 0x02 != 0 && status & R.statusGDA != 0 { active = true }
        if registers[R.md1Config] & 0x20 != 0 && wakeUpActive { active = true }
        let activeLow = registers[R.control3] & R.activeLow != 0
        interruptPin.drive(high: active != activeLow, at: time)
    }
}
