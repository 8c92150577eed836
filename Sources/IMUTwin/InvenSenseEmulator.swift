import IMUGeometry

/// A register-level MPU-6050 (RM-MPU-6000A rev 4.2; tables in `MPU6050Registers`): one I²C
/// target at 0x68 or 0x69. Samples appear at the configured sample rate, sample-and-hold on the
/// grid floor(t · rate), computed lazily when the bus (or the INT line) looks.
///
/// What is emulated: power-on defaults (asleep!), DEVICE_RESET, SLEEP and CYCLE, sample rate
/// from DLPF_CFG and SMPLRT_DIV, gyro and accel full scales, the 14 data bytes (big-endian),
/// temperature, the 1024-byte FIFO (sources, order, FIFO_COUNT latching, overflow dropping the
/// oldest bytes, FIFO_R_W without address increment, last byte repeated when empty),
/// interrupts (DATA_RDY, FIFO_OFLOW, MOT; INT_PIN_CFG level, latch and clear-on-any-read) and
/// motion detection on the high-passed accelerometer. Not emulated: DMP, auxiliary I²C master,
/// self-test responses, standby of single axes, free-fall/zero-motion (removed in rev 4.x).
///
/// With `map: .mpu6500` it follows the MPU-6500/9250 map where that differs (`MPU6500Registers`):
/// running at power-on, ACCEL_CONFIG 2's accelerometer filter, wake-on-motion (WOM_THR on the
/// change from the previous sample, MOT_DETECT_CTRL), LP_ACCEL_ODR in CYCLE mode, a 512-byte
/// FIFO with a 13-bit count, its temperature formula, and the I²C bypass the AK8963 sits behind.
public typealias MPU6050Emulator = InvenSenseEmulator

public final class InvenSenseEmulator: RegisterFileChip, RegisterPointerChip {
    typealias R = MPU6050Registers
    typealias R65 = MPU6500Registers

    public let interruptPin = InterruptPin(name: "INT")
    public let map: InvenSenseMapKind
    private let input: ChipInputSource
    private let errors: SensorErrors

    var registers: RegisterFile
    var pointer: UInt8 = 0
    private var fifo: ByteFIFO
    private var lastFIFOByte: UInt8 = 0
    private var latchedFIFOCount: UInt16 = 0
    private var status: UInt8 = 0

    var lastTime: Double
    private var lastTick: Int64 = 0
    /// High-pass filter state for motion detection (g).
    private var highPassed = Vector3.zero
    private var previousAccel: Vector3?
    private var holdReference: Vector3?
    private var motionSeconds = 0.0

    /// At most this many samples are produced one by one when catching up a long gap; older
    /// ones could not be in the FIFO anyway (1024 bytes hold at most 512 two-byte samples).
    private static let maximumCatchUpSamples: Int64 = 2048

    public init(
        input: @escaping ChipInputSource, errors: SensorErrors, whoAmI: UInt8, map: InvenSenseMapKind = .mpu6050,
        startTime: Double = 0
    ) {
        self.input = input
        self.errors = errors
        self.map = map
        self.lastTime = startTime
        fifo = ByteFIFO(capacity: map == .mpu6050 ? R.fifoCapacityBytes : R65.fifoCapacityBytes)
        registers = RegisterFile(
            defaults: map == .mpu6050 ? R.powerOnDefaults : R65.powerOnDefaults, identityRegister: R.whoAmI, identity: whoAmI)
        loadDefaults()
    }

    /// Whether the auxiliary bus is joined to the host bus (MPU-9250: the AK8963 answers at 0x0C).
    public var bypassOpen: Bool {
        map == .mpu6500 && registers[R.interruptPinConfiguration] & R65.pinBypass != 0
            && registers[R.userControl] & R65.userI2CMaster == 0
    }

    // MARK: Derived configuration

    private var isAsleep: Bool { registers[Int(R.powerManagement1)] & R.powerSleep != 0 }
    private var isCycling: Bool { registers[Int(R.powerManagement1)] & R.powerCycle != 0 }
    private var filter: (accelBandwidthHz: Double, gyroBandwidthHz: Double, gyroOutputRateHz: Double) {
        let code = Int(registers[Int(R.configuration)] & 0x07)
        guard map == .mpu6500 else { return R.lowPassFilters[code] }
        let gyro = R65.gyroLowPassFilters[code]
        let accelConfig2 = registers[R65.accelConfiguration2]
        let accel = accelConfig2 & 0x08 != 0 ? R65.accelFilterBypassHz : R65.accelLowPassHz[Int(accelConfig2 & 0x07)]
        return (accel, gyro.gyroBandwidthHz, gyro.gyroOutputRateHz)
    }

    /// Samples per second now (RM §4.2: gyro output rate / (1 + SMPLRT_DIV); CYCLE mode wakes
    /// at the LP_WAKE_CTRL rate instead, or on the 6500 map LP_ACCEL_ODR's).
    public var sampleRateHz: Double {
        if isCycling {
            if map == .mpu6500 {
                return R65.lowPowerAccelRatesHz[min(11, Int(registers[R65.lowPowerAccelRate] & 0x0F))]
            }
            return R.lowPowerWakeRatesHz[Int(registers[Int(R.powerManagement2)] >> 6)]
        }
        return filter.gyroOutputRateHz / (1 + Double(registers[Int(R.sampleRateDivider)]))
    }

    private var gyroScale: (degreesPerSecond: Double, lsbPerDegreePerSecond: Double) {
        R.gyroFullScales[Int((registers[Int(R.gyroConfiguration)] >> 3) & 0x03)]
    }

    private var accelScale: (g: Double, lsbPerG: Double) {
        R.accelFullScales[Int((registers[Int(R.accelConfiguration)] >> 3) & 0x03)]
    }

    private var fifoCollecting: Bool {
        registers[Int(R.userControl)] & R.userFIFOEnable != 0 && registers[Int(R.fifoEnable)] & 0xF8 != 0
    }

    // MARK: I2CTarget

    public func catchUp(to time: Double) {
        guard time > lastTime else { return }
        defer { lastTime = time }
        if isAsleep { return }
        let rate = sampleRateHz
        guard let due = SampleGrid.due(after: lastTick, at: time, rateHz: rate, limit: Self.maximumCatchUpSamples) else { return }
        if due.skipped, fifoCollecting { raise(R.fifoOverflowInterrupt, at: Double(due.first) / rate) }
        for tick in due.first...due.last { produceSample(tick: tick, rate: rate) }
        lastTick = due.last
    }

    /// RM §4.31: FIFO_R_W is a port that does not advance; every other register auto-increments.
    func register(after register: UInt8) -> UInt8 {
        register == R.fifoReadWrite ? register : (register &+ 1) & 0x7F
    }

    /// A write transaction's first byte: its 7 low bits are the register.
    func register(addressedBy byte: UInt8) -> UInt8 { byte & 0x7F }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        if pointer == R.fifoReadWrite {
            // A drain's burst, taken in one access to the FIFO (per byte, the class's exclusivity
            // checks cost more than the bytes).
            lastFIFOByte = Self.pop(into: buffer, from: &fifo, last: lastFIFOByte)
        } else {
            for i in 0..<buffer.count {
                buffer[i] = load(pointer)
                // RM §4.31: FIFO_R_W is read repeatedly in a burst; every other register auto-increments.
                if pointer != R.fifoReadWrite { pointer = (pointer &+ 1) & 0x7F }
            }
        }
        // RM §4.15 INT_RD_CLEAR = 1: status bits clear on any read operation.
        if buffer.count > 0, registers[Int(R.interruptPinConfiguration)] & R.pinReadClears != 0 {
            clearStatus(at: lastTime)
        }
    }

    public func forceFIFOOverflow() {
        let rate = sampleRateHz
        var guardCount = 0
        while status & R.fifoOverflowInterrupt == 0 && guardCount < 4096 {
            if !fifoCollecting {
                // Nothing enabled: overflow the FIFO with what a full accel+gyro set would write.
                for _ in 0..<fifo.capacity + 1 where !fifo.push(0) {
                    raise(R.fifoOverflowInterrupt, at: lastTime)
                    break
                }
                break
            }
            lastTick += 1
            produceSample(tick: lastTick, rate: rate, stamp: lastTime)
            guardCount += 1
        }
    }

    // MARK: Registers

    func loadDefaults() {
        registers.loadDefaults()
        pointer = 0
        fifo.removeAll()
        lastFIFOByte = 0
        latchedFIFOCount = 0
        status = 0
        highPassed = .zero
        previousAccel = nil
        holdReference = nil
        motionSeconds = 0
        interruptPin.drive(high: false, at: lastTime)
    }

    private func load(_ register: UInt8) -> UInt8 {
        switch register {
        case R.interruptStatus:
            let value = status
            clearStatus(at: lastTime)
            return value
        case R.fifoCountHigh:
            // RM §4.30: reading FIFO_COUNT_H loads both count registers.
            latchedFIFOCount = UInt16(fifo.count)
            // RM9 Table 1: on the 6500 map FIFO_COUNTH carries FIFO_CNT[12:8] only.
            return UInt8(latchedFIFOCount >> 8) & (map == .mpu6500 ? 0x1F : 0xFF)
        case R.fifoCountLow:
            return UInt8(latchedFIFOCount & 0xFF)
        case R.fifoReadWrite:
            // RM §4.31: an empty FIFO returns the last byte read until new data arrives.
            if let byte = fifo.pop() { lastFIFOByte = byte }
            return lastFIFOByte
        case R.whoAmI:
            return registers.identity
        default:
            return registers[Int(register)]
        }
    }

    func store(_ value: UInt8, at register: UInt8) {
        let rateBefore = sampleRateHz
        let wasAsleep = isAsleep
        switch register {
        case R.powerManagement1 where value & R.powerDeviceReset != 0:
            // RM §4.28: DEVICE_RESET restores every register's default (and the bit clears itself).
            loadDefaults()
            return
        case R.userControl:
            if value & R.userFIFOReset != 0 { fifo.removeAll() }
            // FIFO_RESET, I2C_MST_RESET and SIG_COND_RESET clear themselves.
            registers[Int(register)] = value & ~0x07
        case R.signalPathReset:
            registers[Int(register)] = 0
        case R.fifoReadWrite:
            if !fifo.push(value) { raise(R.fifoOverflowInterrupt, at: lastTime) }
        case R.interruptPinConfiguration:
            registers[Int(register)] = value
            updatePin(at: lastTime)
        case R.accelConfiguration:
            registers[Int(register)] = value
            if value & 0x07 == R.accelHighPassHold { holdReference = nil }
        default:
            guard !R.readOnly.contains(register) else { return }
            registers[Int(register)] = value
        }
        // A new rate or a wake-up starts the sample grid at the current time: the next sample
        // is the next tick after now, not a burst of samples "missed" while asleep.
        if sampleRateHz != rateBefore || (wasAsleep && !isAsleep) {
            lastTick = Int64((lastTime * sampleRateHz).rounded(.down))
        }
    }

    // MARK: Sampling

    private func produceSample(tick: Int64, rate: Double, stamp: Double? = nil) {
        let time = Double(tick) / rate
        let truth = input(time)
        let filter = filter
        let accelBandwidth = min(filter.accelBandwidthHz, rate / 2)
        let gyroBandwidth = min(filter.gyroBandwidthHz, rate / 2)
        let accel = errors.accelerometer(truth.specificForceG, tick: tick, bandwidthHz: accelBandwidth)
        let gyro = errors.gyro(
            truth.rotationRateRadiansPerSecond, tick: tick, bandwidthHz: gyroBandwidth, temperatureCelsius: truth.temperatureCelsius)
        let degrees = gyro * (180 / .pi)
        let a = accelScale.lsbPerG, g = gyroScale.lsbPerDegreePerSecond
        let values: [Int16] = [
            Raw.int16(accel.x * a), Raw.int16(accel.y * a), Raw.int16(accel.z * a),
            Raw.int16(temperatureRaw(truth.temperatureCelsius)),
            Raw.int16(degrees.x * g), Raw.int16(degrees.y * g), Raw.int16(degrees.z * g),
        ]
        for (i, v) in values.enumerated() {
            let (high, low) = Raw.bigEndian(v)
            registers[Int(R.accelXHigh) + 2 * i] = high
            registers[Int(R.accelXHigh) + 2 * i + 1] = low
        }
        let when = stamp ?? time
        if fifoCollecting, !Self.pushFIFOSources(from: registers, into: &fifo) {
            raise(R.fifoOverflowInterrupt, at: when)
        }
        detectMotion(accel, sampleSeconds: 1 / rate, at: when)
        raise(R.dataReadyInterrupt, at: when)
    }

    /// FIFO_R_W read `buffer.count` times: RM §4.31, an empty FIFO returns the last byte read
    /// until new data arrives. Returns the last byte read.
    private static func pop(into buffer: UnsafeMutableRawBufferPointer, from fifo: inout ByteFIFO, last: UInt8) -> UInt8 {
        var last = last
        for i in 0..<buffer.count {
            if let byte = fifo.pop() { last = byte }
            buffer[i] = last
        }
        return last
    }

    /// Pushes the enabled sources' registers into the FIFO; false when old bytes were dropped.
    /// (One access to each property for the whole sample: per byte, the class's exclusivity
    /// checks cost more than the copying.)
    private static func pushFIFOSources(from registers: RegisterFile, into fifo: inout ByteFIFO) -> Bool {
        let enabled = registers[Int(R.fifoEnable)]
        var kept = true
        for source in R.fifoSources where enabled & source.enableBit != 0 {
            for offset in 0..<source.byteCount {
                kept = fifo.push(registers[Int(source.firstRegister) + offset]) && kept
            }
        }
        return kept
    }

    private func temperatureRaw(_ celsius: Double) -> Double {
        map == .mpu6500
            ? (celsius - R65.temperatureOffsetCelsius) * R65.temperatureLSBPerDegree
            : (celsius - R.temperatureOffsetCelsius) * R.temperatureLSBPerDegree
    }

    /// Wake-on-motion (PS9 §6.1; RM9 Register 105: ACCEL_INTEL_MODE compares the current sample
    /// with the previous one): any axis changing by more than WOM_THR × 4 mg raises WOM_INT
    /// (INT_STATUS bit 6, the 6050's MOT_INT). No duration.
    private func detectWakeOnMotion(_ accel: Vector3, at time: Double) {
        defer { previousAccel = accel }
        let control = registers[R65.motionDetectControl]
        guard control & R65.intelligenceEnable != 0, control & R65.intelligenceCompare != 0,
              let previous = previousAccel else { return }
        let change = accel - previous
        let threshold = Double(registers[R65.wakeOnMotionThreshold]) * R65.wakeOnMotionGPerLSB
        if max(abs(change.x), abs(change.y), abs(change.z)) > threshold {
            raise(R.motionInterrupt, at: time)
        }
    }

    /// Motion detection (PS §8.x, RM rev 3.2 §4.8–4.9): the accelerometer through the digital
    /// high-pass filter chosen by ACCEL_HPF; when any axis exceeds MOT_THR for MOT_DUR ms,
    /// MOT_INT is set.
    private func detectMotion(_ accel: Vector3, sampleSeconds: Double, at time: Double) {
        guard map == .mpu6050 else { return detectWakeOnMotion(accel, at: time) }
        let mode = registers[Int(R.accelConfiguration)] & 0x07
        if let cutoff = R.accelHighPassCutoffsHz[mode], let previous = previousAccel {
            let rc = 1 / (2 * .pi * cutoff)
            let alpha = rc / (rc + sampleSeconds)
            highPassed = alpha * (highPassed + accel - previous)
        } else if mode == R.accelHighPassHold {
            if holdReference == nil { holdReference = accel }
            highPassed = accel - holdReference!
        } else {
            highPassed = .zero
        }
        previousAccel = accel
        let threshold = Double(registers[Int(R.motionThreshold)]) * R.motionThresholdGPerLSB
        let exceeds = max(abs(highPassed.x), abs(highPassed.y), abs(highPassed.z)) > threshold
        motionSeconds = exceeds ? motionSeconds + sampleSeconds : 0
        let duration = Double(registers[Int(R.motionDuration)]) * R.motionDurationSecondsPerLSB
        if exceeds && motionSeconds >= duration {
            raise(R.motionInterrupt, at: time)
        }
    }

    // MARK: Interrupts

    private func raise(_ bit: UInt8, at time: Double) {
        let newlySet = status & bit == 0
        status |= bit
        let enabled = registers[Int(R.interruptEnable)] & bit != 0
        guard enabled else { return }
        if registers[Int(R.interruptPinConfiguration)] & R.pinLatch != 0 {
            updatePin(at: time)
        } else if newlySet || bit == R.dataReadyInterrupt {
            // RM §4.15: without LATCH_INT_EN the pin gives a 50 µs pulse per event.
            let activeHigh = registers[Int(R.interruptPinConfiguration)] & R.pinActiveLow == 0
            interruptPin.pulse(activeHigh: activeHigh, at: time, width: R.interruptPulseSeconds)
        }
    }

    private func clearStatus(at time: Double) {
        status = 0
        updatePin(at: time)
    }

    /// Latched mode: the pin is active while an enabled status bit is set. Otherwise it idles.
    private func updatePin(at time: Double) {
        let config = registers[Int(R.interruptPinConfiguration)]
        let activeHigh = config & R.pinActiveLow == 0
        let latched = config & R.pinLatch != 0
        let active = latched && status & registers[Int(R.interruptEnable)] != 0
        interruptPin.drive(high: active == activeHigh, at: time)
    }
}
