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

/// The MPU-6050 driver (Sources/IMUDrivers, the same code as on Linux) configured over the
/// register model and reading the first samples of samples.bin presented on its registers;
/// prints the decoded samples' bit patterns as a checksum and the first sample, so that the
/// firmware's and the Linux build's lines can be compared.
func runDriverCheck() {
    let bus = MPU6050RegisterModel()
    let clock = SteppedClock()
    let driver = MPU6050(bus: bus, clock: clock)
    var line = Line()
    do throws(IMUDriverError) {
        try driver.configure(IMUSettings(accelerometerRangeG: 4, gyroscopeRangeDegreesPerSecond: 2000, sampleRateHz: 250))
    } catch {
        fw_print("driver mpu6050: configure failed\n")
        fw_exit(1)
    }
    let handle = fw_open_samples()
    guard handle >= 0 else { fw_print("driver mpu6050: cannot read samples.bin\n"); fw_exit(1) }
    var words: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var checksum = Checksum()
    var count: UInt64 = 0
    let allocationsBefore = fw_allocation_count()
    while count < 2000 {
        let got = withUnsafeMutableBytes(of: &words) { fw_read(handle, $0.baseAddress, Int32(StoredSample.byteCount)) }
        guard got == Int32(StoredSample.byteCount) else { break }
        let w = words
        bus.present(accel: (w.3, w.4, w.5), gyro: (w.0, w.1, w.2))
        clock.now += 0.004
        let sample: MotionSample
        do throws(IMUDriverError) {
            sample = try driver.readSample()
        } catch {
            fw_print("driver mpu6050: readSample failed\n")
            fw_exit(1)
        }
        let values = (
            sample.acceleration.x, sample.acceleration.y, sample.acceleration.z,
            sample.rotationRate.x, sample.rotationRate.y, sample.rotationRate.z, sample.temperature ?? -1)
        // One call per value: an array literal would allocate on every sample.
        checksum.add(values.0); checksum.add(values.1); checksum.add(values.2)
        checksum.add(values.3); checksum.add(values.4); checksum.add(values.5); checksum.add(values.6)
        if count == 0 {
            line.add("driver mpu6050 first_sample_bits=")
            line.hex(values.0.bitPattern); line.add(","); line.hex(values.2.bitPattern); line.add(",")
            line.hex(values.5.bitPattern); line.add(","); line.hex(values.6.bitPattern)
            line.print()
        }
        count += 1
    }
    let readAllocations = fw_allocation_count() &- allocationsBefore
    fw_close(handle)
    if fw_is_target() != 0 {
        // Counted by the firmware's allocator: reading samples must make none.
        line.add("allocations mpu6050_reads="); line.decimal(UInt64(readAllocations))
        line.print()
    }
    line.add("driver mpu6050 samples="); line.decimal(count)
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
