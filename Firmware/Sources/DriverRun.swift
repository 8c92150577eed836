import IMUBus
import IMUDrivers
import IMUGeometry

/// An MPU-6050 as registers on an in-memory bus, the way the twin models it: 128 registers at
/// address 0x68, a register pointer set by the first byte of a write and advancing on every
/// byte (RM §4: burst reads and writes auto-increment), DEVICE_RESET restoring the reset
/// values (RM §3: 0x00 everywhere except PWR_MGMT_1 = 0x40, SLEEP, and WHO_AM_I = 0x68), and
/// the output registers (RM §59–72, big-endian) holding the presented sample in counts of the
/// full scale the driver configured (AFS_SEL, FS_SEL; PS §6.1–6.2), zero while asleep.
/// Allocated once; nothing per transfer.
final class MPU6050RegisterModel: I2CBus {
    let name = "memory"
    let address: UInt8 = 0x68
    private let registers = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)
    private var pointer: UInt8 = 0
    /// The sample on the output registers: acceleration (g, Core Motion sign) and rate (rad/s), Q16.16.
    private var accel: (Int32, Int32, Int32) = (0, 0, 0)
    private var gyro: (Int32, Int32, Int32) = (0, 0, 0)

    init() { reset() }

    private func reset() {
        registers.initialize(repeating: 0, count: 128)
        registers[0x6B] = 0x40
        registers[0x75] = 0x68
    }

    func present(accel a: (Int32, Int32, Int32), gyro g: (Int32, Int32, Int32)) {
        accel = a
        gyro = g
    }

    /// Counts of the current full scale, saturated to Int16 like the chip's outputs.
    private func outputRegister(_ register: UInt8) -> UInt8 {
        guard registers[0x6B] & 0x40 == 0 else { return 0 }
        let offset = Int(register) - 0x3B
        let axis = (offset % 6) / 2
        var counts: Int64
        switch offset {
        case 0..<6:
            // Specific force (the chip's sign: +1 g up at rest) = −acceleration; 16384 LSB/g >> AFS_SEL.
            let g = axis == 0 ? accel.0 : axis == 1 ? accel.1 : accel.2
            counts = ((-Int64(g) << 14) >> Int64((registers[0x1C] >> 3) & 3)) >> 16
        case 6..<8:
            counts = 0  // 36.53 °C (RM §63: °C = counts / 340 + 36.53)
        default:
            // 131 LSB/(°/s) >> FS_SEL: rad/s · 180/π · 131 = rad/s · 7505.747.
            let r = axis == 0 ? gyro.0 : axis == 1 ? gyro.1 : gyro.2
            counts = ((Int64(r) * 7_505_747 / 1000) >> Int64((registers[0x1B] >> 3) & 3)) >> 16
        }
        let value = UInt16(bitPattern: Int16(max(-32768, min(32767, counts))))
        return offset % 2 == 0 ? UInt8(value >> 8) : UInt8(value & 0xFF)
    }

    private func noAcknowledge(_ to: UInt8) -> I2CError { I2CError(.noAcknowledge, bus: name, address: to) }

    func write(_ to: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        guard to == address else { throw noAcknowledge(to) }
        guard let first = bytes.first else { return }
        pointer = first & 0x7F
        for value in bytes.dropFirst() {
            if pointer == 0x6B && value & 0x80 != 0 {
                reset()
            } else if pointer != 0x75 {
                registers[Int(pointer)] = value
            }
            pointer = (pointer &+ 1) & 0x7F
        }
    }

    func read(_ from: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard from == address else { throw noAcknowledge(from) }
        for i in 0..<buffer.count {
            buffer[i] = (0x3B...0x48).contains(pointer) ? outputRegister(pointer) : registers[Int(pointer)]
            pointer = (pointer &+ 1) & 0x7F
        }
    }

    func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try transactionAsTransfers(address, operations)
    }

    func writeRead(
        _ to: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        try write(to, bytes)
        try read(to, into: buffer)
    }
}

/// Virtual time: the driver's waits advance it, each sample read moves it by one period.
final class SteppedClock: MonotonicClock {
    var now = 0.0
    func sleep(seconds: Double) { now += seconds }
}

/// The chip drivers (Sources/IMUDrivers, the same code as on Linux) configured over the
/// register models and reading the first samples of samples.bin presented on their registers;
/// prints the decoded samples' bit patterns as a checksum and the first sample, so that the
/// firmware's and the Linux build's lines can be compared, and (on the target) how many
/// allocations the reads made.
func runDriverCheck() {
    let mpu = MPU6050RegisterModel()
    let mpuClock = SteppedClock()
    readThroughDriver(
        MPU6050(bus: mpu, clock: mpuClock), name: "mpu6050", clock: mpuClock, period: 0.004,
        settings: IMUSettings(accelerometerRangeG: 4, gyroscopeRangeDegreesPerSecond: 2000, sampleRateHz: 250)
    ) { w in mpu.present(accel: (w.3, w.4, w.5), gyro: (w.0, w.1, w.2)) }
    let lsm = LSM9DS1RegisterModel()
    let lsmClock = SteppedClock()
    readThroughDriver(
        LSM9DS1(bus: lsm, clock: lsmClock), name: "lsm9ds1", clock: lsmClock, period: 1 / 238.0,
        settings: IMUSettings(
            accelerometerRangeG: 4, gyroscopeRangeDegreesPerSecond: 2000, sampleRateHz: 238, magnetometerRangeGauss: 4,
            magnetometerRateHz: 80)
    ) { w in lsm.present(accel: (w.3, w.4, w.5), gyro: (w.0, w.1, w.2), field: (w.6, w.7, w.8)) }
}

typealias SampleWords = (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32)

func readThroughDriver<Driver: IMUDriver>(
    _ driver: Driver, name: StaticString, clock: SteppedClock, period: Double, settings: IMUSettings,
    present: (SampleWords) -> Void
) {
    var line = Line()
    do throws(IMUDriverError) {
        try driver.configure(settings)
    } catch {
        line.add("driver "); line.add(name); line.add(": configure failed"); line.print()
        fw_exit(1)
    }
    let handle = fw_open_samples()
    guard handle >= 0 else { fw_print("driver: cannot read samples.bin\n"); fw_exit(1) }
    var words: SampleWords = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var checksum = Checksum()
    var count: UInt64 = 0
    let allocationsBefore = fw_allocation_count()
    while count < 2000 {
        let got = withUnsafeMutableBytes(of: &words) { fw_read(handle, $0.baseAddress, Int32(StoredSample.byteCount)) }
        guard got == Int32(StoredSample.byteCount) else { break }
        present(words)
        clock.now += period
        let sample: MotionSample
        do throws(IMUDriverError) {
            sample = try driver.readSample()
        } catch {
            line.add("driver "); line.add(name); line.add(": readSample failed"); line.print()
            fw_exit(1)
        }
        let field = sample.magneticField ?? Vector3(0, 0, 0)
        // One call per value: an array literal would allocate on every sample.
        checksum.add(sample.acceleration.x); checksum.add(sample.acceleration.y); checksum.add(sample.acceleration.z)
        checksum.add(sample.rotationRate.x); checksum.add(sample.rotationRate.y); checksum.add(sample.rotationRate.z)
        checksum.add(field.x); checksum.add(field.y); checksum.add(field.z)
        checksum.add(sample.temperature ?? -1); checksum.add(sample.timestamp)
        if count == 0 {
            line.add("driver "); line.add(name); line.add(" first_sample_bits=")
            line.hex(sample.acceleration.z.bitPattern); line.add(","); line.hex(sample.rotationRate.x.bitPattern)
            line.add(","); line.hex(field.y.bitPattern); line.add(","); line.hex((sample.temperature ?? -1).bitPattern)
            line.print()
        }
        count += 1
    }
    let readAllocations = fw_allocation_count() &- allocationsBefore
    fw_close(handle)
    if fw_is_target() != 0 {
        // Counted by the firmware's allocator: reading samples must make none.
        line.add("allocations "); line.add(name); line.add("_reads="); line.decimal(UInt64(readAllocations))
        line.print()
    }
    line.add("driver "); line.add(name); line.add(" samples="); line.decimal(count)
    line.add(" decoded_checksum="); line.hex(checksum.value)
    line.print()
}

extension Checksum {
    /// A Double's bit pattern, low word first.
    mutating func add(_ value: Double) {
        add(Int32(truncatingIfNeeded: value.bitPattern))
        add(Int32(truncatingIfNeeded: value.bitPattern >> 32))
    }
}

/// An LSM9DS1 as registers on an in-memory bus: the accelerometer/gyroscope part at 0x6A and the
/// magnetometer part at 0x1C, as the datasheet (DS) describes them. Accel/gyro: register
/// pointer auto-increment (CTRL_REG8 IF_ADD_INC, on at reset), with the burst jumps of DS §3.3
/// (OUT_Z_H_G 0x1D → OUT_X_L_XL 0x28, OUT_Z_H_XL 0x2D → OUT_X_L_G 0x18); WHO_AM_I 0x68; SW_RESET
/// restores the reset values (CTRL_REG8 = 0x04); outputs little-endian counts of FS_G (DS Table
/// 3: 8.75, 17.5, 70 mdps/LSB) and FS_XL (0.061, 0.732, 0.122, 0.244 mg/LSB for codes 0–3),
/// zero until the gyro is set running. Magnetometer: WHO_AM_I_M 0x3D, auto-increment only with
/// the sub-address MSB set (DS §6.1.1), outputs in counts of FS (0.14, 0.29, 0.43, 0.58
/// mgauss/LSB) on its own axes, whose x is the accel/gyro x reversed (DS Figure 2).
final class LSM9DS1RegisterModel: I2CBus {
    let name = "memory"
    let address: UInt8 = 0x6A
    let magnetometerAddress: UInt8 = 0x1C
    private let registers = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)  // 0–127 accel/gyro, 128–255 magnetometer
    private var pointer: UInt8 = 0
    private var magnetometerPointer: UInt8 = 0
    private var magnetometerIncrements = false
    private var accel: (Int32, Int32, Int32) = (0, 0, 0)
    private var gyro: (Int32, Int32, Int32) = (0, 0, 0)
    private var field: (Int32, Int32, Int32) = (0, 0, 0)

    init() {
        registers.initialize(repeating: 0, count: 256)
        resetAccelGyro()
        resetMagnetometer()
    }

    private func resetAccelGyro() {
        for r in 0..<128 { registers[r] = 0 }
        registers[0x0F] = 0x68
        registers[0x22] = 0x04  // IF_ADD_INC
    }

    private func resetMagnetometer() {
        for r in 128..<256 { registers[r] = 0 }
        registers[128 + 0x0F] = 0x3D
        registers[128 + 0x22] = 0x03  // power-down until MD is written
    }

    /// The sample on the outputs: acceleration (g, Core Motion sign), rate (rad/s), field (µT), Q16.16, device axes.
    func present(accel a: (Int32, Int32, Int32), gyro g: (Int32, Int32, Int32), field f: (Int32, Int32, Int32)) {
        (accel, gyro, field) = (a, g, f)
    }

    private static func component(_ v: (Int32, Int32, Int32), _ axis: Int) -> Int64 {
        Int64(axis == 0 ? v.0 : axis == 1 ? v.1 : v.2)
    }

    private static func byte(_ counts: Int64, high: Bool) -> UInt8 {
        let value = UInt16(bitPattern: Int16(max(-32768, min(32767, counts))))
        return high ? UInt8(value >> 8) : UInt8(value & 0xFF)
    }

    private func accelGyroRegister(_ register: UInt8) -> UInt8 {
        let running = registers[0x10] & 0xE0 != 0  // ODR_G: gyro (and accel with it) on
        switch register {
        case 0x18...0x1D where running:
            let microDegreesPerLSB: Int64
            switch registers[0x10] >> 3 & 3 {  // FS_G (code 2 is not available: treated as 0)
            case 1: microDegreesPerLSB = 17_500
            case 3: microDegreesPerLSB = 70_000
            default: microDegreesPerLSB = 8_750
            }
            let offset = Int(register) - 0x18
            // rad/s · 180/π · 10⁶ / (µdps per LSB)
            let counts = (Self.component(gyro, offset / 2) * 57_295_780 / microDegreesPerLSB) >> 16
            return Self.byte(counts, high: offset % 2 == 1)
        case 0x28...0x2D where running:
            let microGPerLSB: Int64
            switch registers[0x20] >> 3 & 3 {  // FS_XL: ±2, ±16, ±4, ±8 g
            case 1: microGPerLSB = 732
            case 2: microGPerLSB = 122
            case 3: microGPerLSB = 244
            default: microGPerLSB = 61
            }
            let offset = Int(register) - 0x28
            // The chip's sign: specific force, −acceleration.
            let counts = (-Self.component(accel, offset / 2) * 1_000_000 / microGPerLSB) >> 16
            return Self.byte(counts, high: offset % 2 == 1)
        case 0x15, 0x16:
            return 0  // 25 °C (DS Table 5)
        default:
            return registers[Int(register)]
        }
    }

    private func magnetometerRegister(_ register: UInt8) -> UInt8 {
        guard (0x28...0x2D).contains(register), registers[128 + 0x22] & 0x03 == 0 else { return registers[128 + Int(register)] }
        let microGaussPerLSB: Int64
        switch registers[128 + 0x21] >> 5 & 3 {  // FS: ±4, ±8, ±12, ±16 gauss
        case 1: microGaussPerLSB = 290
        case 2: microGaussPerLSB = 430
        case 3: microGaussPerLSB = 580
        default: microGaussPerLSB = 140
        }
        let offset = Int(register) - 0x28
        let sign: Int64 = offset / 2 == 0 ? -1 : 1  // the magnetometer's x is reversed
        // µT = 10 mgauss: µT · 10⁴ / (µgauss per LSB)
        let counts = (sign * Self.component(field, offset / 2) * 10_000 / microGaussPerLSB) >> 16
        return Self.byte(counts, high: offset % 2 == 1)
    }

    private func nextAccelGyroPointer(_ p: UInt8) -> UInt8 {
        guard registers[0x22] & 0x04 != 0 else { return p }
        switch p {
        case 0x1D where registers[0x10] & 0xE0 != 0: return 0x28
        case 0x2D where registers[0x10] & 0xE0 != 0: return 0x18
        default: return (p &+ 1) & 0x7F
        }
    }

    private func noAcknowledge(_ to: UInt8) -> I2CError { I2CError(.noAcknowledge, bus: name, address: to) }

    func write(_ to: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        guard let first = bytes.first else { return }
        if to == address {
            pointer = first & 0x7F
            for value in bytes.dropFirst() {
                if pointer == 0x22 && value & 0x01 != 0 {
                    resetAccelGyro()
                } else if pointer != 0x0F {
                    registers[Int(pointer)] = value
                }
                pointer = nextAccelGyroPointer(pointer)
            }
        } else if to == magnetometerAddress {
            magnetometerIncrements = first & 0x80 != 0
            magnetometerPointer = first & 0x7F
            for value in bytes.dropFirst() {
                if magnetometerPointer == 0x21 && value & 0x04 != 0 {
                    resetMagnetometer()
                } else if magnetometerPointer != 0x0F {
                    registers[128 + Int(magnetometerPointer)] = value
                }
                if magnetometerIncrements { magnetometerPointer = (magnetometerPointer &+ 1) & 0x7F }
            }
        } else {
            throw noAcknowledge(to)
        }
    }

    func read(_ from: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if from == address {
            for i in 0..<buffer.count {
                buffer[i] = accelGyroRegister(pointer)
                pointer = nextAccelGyroPointer(pointer)
            }
        } else if from == magnetometerAddress {
            for i in 0..<buffer.count {
                buffer[i] = magnetometerRegister(magnetometerPointer)
                if magnetometerIncrements { magnetometerPointer = (magnetometerPointer &+ 1) & 0x7F }
            }
        } else {
            throw noAcknowledge(from)
        }
    }

    func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try transactionAsTransfers(address, operations)
    }

    func writeRead(
        _ to: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        try write(to, bytes)
        try read(to, into: buffer)
    }
}
