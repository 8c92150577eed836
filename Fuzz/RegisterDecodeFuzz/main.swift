import FuzzDriver
import IMUBus
import IMUDrivers

/// A chip that answers from the fuzz input: every register read after configuration takes its
/// bytes from the input (zeros once it runs out), so the drivers' decoding of sample bursts,
/// FIFO fill levels and FIFO bytes meets every value a glitching bus or a broken part can give.
/// WHO_AM_I answers truthfully (the identity check has its own tests).
final class FuzzedChipBus: I2CBus {
    let name = "fuzz"
    var input: ArraySlice<UInt8>
    let identities: [UInt16: UInt8] = [
        0x68_75: 0x68,  // MPU-6050 WHO_AM_I
        0x6A_0F: 0x68,  // LSM9DS1 accel/gyro WHO_AM_I
        0x1C_0F: 0x3D,  // LSM9DS1 magnetometer WHO_AM_I
    ]

    init(_ input: ArraySlice<UInt8>) { self.input = input }

    func nextByte() -> UInt8 { input.popFirst() ?? 0 }

    func write(_ address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {}

    func read(_ address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        for i in buffer.indices { buffer[i] = nextByte() }
    }

    func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try transactionAsTransfers(address, operations)
    }

    func writeRead(_ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if buffer.count == 1, let register = bytes.first, let identity = identities[UInt16(address) << 8 | UInt16(register)] {
            buffer[0] = identity
            return
        }
        try read(address, into: buffer)
    }
}

final class StepClock: MonotonicClock {
    var now = 1000.0
    func sleep(seconds: Double) { if seconds > 0 { now += seconds } }
}

func check(_ sample: MotionSample, _ configuration: IMUConfiguration) {
    let accelLimit = configuration.accelerometerScale.sensitivity * 32768
    let gyroLimit = configuration.gyroscopeScale.sensitivity * 32768 * .pi / 180
    for value in [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z] {
        precondition(value.isFinite && abs(value) <= accelLimit * (1 + 1e-12), "acceleration \(value) beyond ±\(accelLimit) g")
    }
    for value in [sample.rotationRate.x, sample.rotationRate.y, sample.rotationRate.z] {
        precondition(value.isFinite && abs(value) <= gyroLimit * (1 + 1e-12), "rotation rate \(value) beyond ±\(gyroLimit) rad/s")
    }
    if let field = sample.magneticField { precondition(field.length.isFinite) }
    if let temperature = sample.temperature { precondition(temperature.isFinite) }
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let setup = bytes.first else { return 0 }
    let bus = FuzzedChipBus(bytes.dropFirst())
    let clock = StepClock()
    let driver: any IMUDriver =
        setup & 1 == 0 ? MPU6050(bus: bus, clock: clock) : LSM9DS1(bus: bus, clock: clock)
    let rates: [Double] = [10, 50, 100, 119, 200, 476, 952, 1000]
    do {
        try driver.configure(IMUSettings(sampleRateHz: rates[Int(setup >> 1) & 7]))
        try driver.startFIFO()
    } catch {
        return 0
    }
    var batch: [MotionSample] = []
    var lastTimestamp = -Double.infinity
    // Then operations, one input byte each (low 2 bits: which; the rest: milliseconds to wait first).
    for _ in 0..<64 {
        guard let op = bus.input.popFirst() else { break }
        clock.sleep(seconds: Double(op >> 2) / 1000)
        do {
            switch op & 3 {
            case 0:
                check(try driver.readSample(), driver.configuration)
            case 1:
                batch.removeAll(keepingCapacity: true)
                let result = try driver.drainFIFO(into: &batch)
                precondition(result.count == batch.count, "batch says \(result.count), \(batch.count) delivered")
                precondition(result.count <= driver.capabilities.fifoCapacity, "\(result.count) samples from a FIFO of \(driver.capabilities.fifoCapacity)")
                precondition(result.dropped >= 0)
                // Time only goes forward: across batches, overflows and FIFO restarts.
                for sample in batch {
                    check(sample, driver.configuration)
                    precondition(sample.timestamp > lastTimestamp, "FIFO timestamps out of order: \(sample.timestamp) after \(lastTimestamp)")
                    lastTimestamp = sample.timestamp
                }
            case 2:
                _ = try driver.isConfigured()
            default:
                try driver.startFIFO()
            }
        } catch {
            _ = error.description
        }
    }
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
