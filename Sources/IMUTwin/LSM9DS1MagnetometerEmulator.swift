import IMUGeometry

/// The LSM9DS1's magnetometer die (DocID025715 §8; tables in `LSM9DS1Registers`): its own I²C
/// target at 0x1C or 0x1E, its own axes (`magnetometerAxesFromAccelGyroAxes`). The LIS3MDL has
/// the same map and is this emulator with its own `Facts` (`LIS3MDLRegisters.facts`).
///
/// Emulated: Table 22 defaults (power-down at start), continuous and single conversion, DO
/// rates and LP, full scales, offset registers, little-endian data (BLE swaps), STATUS_REG_M
/// data-available and overrun, SOFT_RST. Multi-byte access increments the address only when the
/// sub-address MSB is set (§5.1.1); among the output registers the address wraps 0x2D → 0x28
/// (ST's answer on its community forum; not in the datasheet). Not emulated: INT_M, DRDY_M, self-test.
public final class LSM9DS1MagnetometerEmulator: RegisterFileChip {
    typealias R = LSM9DS1Registers

    /// Where a magnetometer with this register map differs from the LSM9DS1's (the LIS3MDL's
    /// defaults, writable registers, sensitivities and axes).
    public struct Facts: Sendable {
        public var defaults: [UInt8: UInt8]
        public var writable: Set<UInt8>
        /// By FS code: mgauss per LSB.
        public var milligaussPerLSB: [Double]
        /// `field in magnetometer axes = axesFromAccelGyroAxes · field in accel/gyro axes`.
        public var axesFromAccelGyroAxes: Matrix3

        public static let lsm9ds1 = Facts(
            defaults: R.magnetometerDefaults, writable: R.magnetometerWritable,
            milligaussPerLSB: R.magnetometerFullScales.map(\.milligaussPerLSB),
            axesFromAccelGyroAxes: R.magnetometerAxesFromAccelGyroAxes)
    }

    private let facts: Facts

    private let input: ChipInputSource
    private let errors: SensorErrors
    // Unchecked: touched only with the board's TwinLock held (the bus's transactions), never by two
    // accesses at once; the dynamic exclusivity check on every register read cost a tenth of the twin.
    @exclusivity(unchecked) var registers: RegisterFile
    @exclusivity(unchecked) private var pointer: UInt8 = 0
    @exclusivity(unchecked) private var autoIncrement = false
    @exclusivity(unchecked) var lastTime: Double
    @exclusivity(unchecked) private var lastTick: Int64 = 0
    @exclusivity(unchecked) private var singleConversionTick: Int64?
    @exclusivity(unchecked) private var sample: [Int16] = [0, 0, 0]

    public init(input: @escaping ChipInputSource, errors: SensorErrors, whoAmI: UInt8, startTime: Double = 0, facts: Facts = .lsm9ds1) {
        self.input = input
        self.errors = errors
        self.lastTime = startTime
        self.facts = facts
        registers = RegisterFile(defaults: facts.defaults, identityRegister: R.magnetometerWhoAmI, identity: whoAmI)
        loadDefaults()
    }

    /// Conversions per second now (Table 111; LP forces 0.625 Hz).
    public var sampleRateHz: Double {
        if registers[Int(R.magnetometerControl3)] & 0x20 != 0 { return R.magnetometerRatesHz[0] }
        return R.magnetometerRatesHz[Int((registers[Int(R.magnetometerControl1)] >> 2) & 0x07)]
    }

    /// Table 117: MD 00 continuous, 01 single, 1x power-down.
    private var mode: UInt8 { registers[Int(R.magnetometerControl3)] & 0x03 }

    // MARK: I2CTarget

    public func catchUp(to time: Double) {
        guard time > lastTime else { return }
        defer { lastTime = time }
        let rate = sampleRateHz
        let target = Int64((time * rate).rounded(.down))
        switch mode {
        case 0:
            if target > lastTick { convert(tick: target, rate: rate) }
        case 1:
            if let due = singleConversionTick, target >= due {
                convert(tick: due, rate: rate)
                singleConversionTick = nil
                // After a single conversion the part returns to power-down.
                registers[Int(R.magnetometerControl3)] |= 0x03
            }
        default:
            break
        }
        lastTick = max(lastTick, target)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        pointer = first & 0x7F
        autoIncrement = first & R.magnetometerAutoIncrement != 0
        for byte in bytes.dropFirst() {
            store(byte, at: pointer)
            if autoIncrement { pointer = next(after: pointer) }
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count {
            buffer[i] = load(pointer)
            if autoIncrement { pointer = next(after: pointer) }
        }
    }

    private func next(after register: UInt8) -> UInt8 {
        register == R.magnetometerZHigh ? R.magnetometerXLow : (register &+ 1) & 0x7F
    }

    // MARK: Registers

    func loadDefaults() {
        registers.loadDefaults()
        pointer = 0
        autoIncrement = false
        singleConversionTick = nil
        sample = [0, 0, 0]
    }

    private func load(_ register: UInt8) -> UInt8 {
        switch register {
        case R.magnetometerWhoAmI:
            return registers.identity
        case R.magnetometerXLow...R.magnetometerZHigh:
            let offset = Int(register - R.magnetometerXLow)
            let (low, high) = Raw.littleEndian(sample[offset / 2])
            let bigEndian = registers[Int(R.magnetometerControl4)] & 0x02 != 0
            if register == R.magnetometerZHigh { registers[Int(R.magnetometerStatus)] = 0 }
            return (offset % 2 == 1) != bigEndian ? high : low
        default:
            return registers[Int(register)]
        }
    }

    private func store(_ value: UInt8, at register: UInt8) {
        guard facts.writable.contains(register) else { return }
        if register == R.magnetometerControl2 && value & 0x04 != 0 {
            // §8.6 SOFT_RST: configuration and user registers back to defaults.
            loadDefaults()
            return
        }
        let rateBefore = sampleRateHz
        registers[Int(register)] = register == R.magnetometerControl2 ? value & ~0x0C : value
        if register == R.magnetometerControl3 && value & 0x03 == 0x01 {
            singleConversionTick = Int64((lastTime * sampleRateHz).rounded(.down)) + 1
        }
        if sampleRateHz != rateBefore || register == R.magnetometerControl3 {
            lastTick = Int64((lastTime * sampleRateHz).rounded(.down))
        }
    }

    private func convert(tick: Int64, rate: Double) {
        let truth = input(Double(tick) / rate)
        let inOwnAxes = facts.axesFromAccelGyroAxes * truth.magneticFieldMicrotesla
        let measured = errors.magnetometer(inOwnAxes, tick: tick)
        let milligaussPerLSB = facts.milligaussPerLSB[Int((registers[Int(R.magnetometerControl2)] >> 5) & 0x03)]
        let lsbPerMicrotesla = 1 / (milligaussPerLSB * R.microteslaPerMilligauss)
        for axis in 0..<3 {
            let base = Int(R.magnetometerOffsetXLow) + 2 * axis
            let offset = Int16(bitPattern: UInt16(registers[base]) | UInt16(registers[base + 1]) << 8)
            sample[axis] = Raw.int16(measured[axis] * lsbPerMicrotesla - Double(offset))
        }
        let status = R.magnetometerStatus
        // Table 124: a set not yet read and overwritten → overrun bits too.
        registers[Int(status)] = registers[Int(status)] & 0x08 != 0 ? 0xFF : 0x0F
    }
}
