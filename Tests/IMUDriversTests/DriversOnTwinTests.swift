import IMUBoards
import IMUBus
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUDrivers

/// The drivers against the twin's register emulation: what the datasheets promise, end to end
/// from the chip's registers to Core Motion units.
@Suite struct DriversOnTwinTests {
    static let chips: [ChipModel] = ChipModel.allCases

    func board(_ chip: ChipModel, _ scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .calibrated)
        -> (VirtualBoard, any IMUDriver, VirtualClock)
    {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: chip, scenario: scenario, errors: errors, seed: 7, clock: clock)
        return (board, board.profile.imus[0].makeDriver(bus: board.bus, clock: clock), clock)
    }

    func meanAcceleration(_ driver: any IMUDriver, _ clock: VirtualClock, samples: Int = 20) throws -> Vector3 {
        var sum = Vector3.zero
        for _ in 0..<samples {
            sum += try driver.readSample().acceleration
            clock.advance(by: 1 / driver.configuration.sampleRate.hertz)
        }
        return sum / Double(samples)
    }

    /// The seeds' readings (Core Motion's documentation): held upright y = −1 g; turned 90°
    /// clockwise x = +1; upside down y = +1; 90° more x = −1; on its back z = −1; face down z = +1.
    @Test(arguments: chips)
    func seedReadings(_ chip: ChipModel) throws {
        let expected: [(Pose, Vector3)] = [
            (.upright, Vector3(0, -1, 0)), (.landscapeRight, Vector3(1, 0, 0)), (.upsideDown, Vector3(0, 1, 0)),
            (.landscapeLeft, Vector3(-1, 0, 0)), (.faceUp, Vector3(0, 0, -1)), (.faceDown, Vector3(0, 0, 1)),
        ]
        for (pose, gravity) in expected {
            let (_, driver, clock) = board(chip, PoseScenario(pose))
            try driver.configure(IMUSettings(sampleRateHz: 100))
            let mean = try meanAcceleration(driver, clock)
            for axis in 0..<3 {
                #expect(abs(mean[axis] - gravity[axis]) < 0.03, "\(chip.rawValue) \(pose): \(mean), expected \(gravity)")
            }
        }
    }

    /// At 1 kHz through the FIFO: no sample lost, at most one transaction per ten samples.
    @Test func mpu6050FIFOAt1kHzLosesNothingAndBatchesTheBus() throws {
        let (board, driver, clock) = board(.mpu6050)
        try driver.configure(IMUSettings(sampleRateHz: 1000))
        try driver.startFIFO()
        board.bus.resetTransactionCounts()
        var samples: [MotionSample] = []
        var dropped = 0
        for _ in 0..<50 {  // one second, drained every 20 ms
            clock.advance(by: 0.02)
            dropped += try driver.drainFIFO(into: &samples).dropped
        }
        #expect(dropped == 0)
        #expect(abs(samples.count - 1000) <= 1)
        #expect(board.bus.transactionCount * 10 <= samples.count, "\(board.bus.transactionCount) transactions for \(samples.count) samples")
        for (a, b) in zip(samples, samples.dropFirst()) {
            #expect(abs(b.timestamp - a.timestamp - 0.001) < 1e-9)
        }
        let mean = samples.reduce(Vector3.zero) { $0 + $1.acceleration } / Double(samples.count)
        #expect((mean - Vector3(0, 0, -1)).length < 0.01)
    }

    /// FIFO fill level, every level in one burst, and the magnetometer once: three a batch.
    @Test func lsm9ds1FIFOReadsEveryLevelInOneBurst() throws {
        let (board, driver, clock) = board(.lsm9ds1)
        try driver.configure(IMUSettings(sampleRateHz: 952))
        try driver.startFIFO()
        board.bus.resetTransactionCounts()
        var samples: [MotionSample] = []
        var batches = 0
        for _ in 0..<50 {  // one second, drained every 20 ms (19 of the 32 levels)
            clock.advance(by: 0.02)
            let batch = try driver.drainFIFO(into: &samples)
            #expect(batch.dropped == 0)
            #expect(batch.transactions == 3)
            batches += 1
        }
        #expect(abs(samples.count - 952) <= 1)
        #expect(samples.allSatisfy { $0.magneticField != nil })
        #expect(board.bus.transactionCount == 3 * batches)
        let mean = samples.reduce(Vector3.zero) { $0 + $1.acceleration } / Double(samples.count)
        #expect((mean - Vector3(0, 0, -1)).length < 0.01)
    }

    /// Hard slaps (stops of about 4.4 g) on a ±2 g range: while the true specific force on an axis
    /// is beyond full scale, that axis reads full scale with the true sign (the chips' ADC
    /// saturates; a reading that wrapped around would flip to the other side).
    @Test(arguments: chips)
    func saturatedReadingsClipAtFullScaleAndNeverWrap(_ chip: ChipModel) throws {
        let (twin, driver, clock) = board(chip, MotionScenarios.named("slap")!)
        try driver.configure(IMUSettings(accelerometerRangeG: 2, sampleRateHz: chip == .mpu6050 ? 1000 : 952))
        let fullScale = driver.configuration.accelerometerScale.sensitivity * 32768
        #expect(abs(fullScale - 2) < 0.01)
        var strongest = 0.0, saturated = 0, wrapped: [String] = []
        for _ in 0..<20_000 {
            // Core Motion's sign (the driver's): the opposite of the specific force.
            let truth = -twin.deviceTruthNow.specificForceG
            strongest = max(strongest, truth.length)
            let reading = try driver.readSample().acceleration
            for axis in 0..<3 where abs(truth[axis]) > 1.05 * fullScale {
                saturated += 1
                if reading[axis] * truth[axis] <= 0 || abs(reading[axis]) < 0.99 * fullScale {
                    wrapped.append("axis \(axis): truth \(truth[axis]) g read \(reading[axis]) g")
                }
            }
            clock.advance(by: 0.001)
        }
        #expect(strongest > 3.5, "the scenario's slaps reach \(strongest) g")
        #expect(saturated > 10, "only \(saturated) samples beyond full scale")
        #expect(wrapped.isEmpty, "\(wrapped.prefix(5))")
    }

    @Test(arguments: chips)
    func anOverflowedFIFOReportsWhatWasLostAndRecovers(_ chip: ChipModel) throws {
        let (_, driver, clock) = board(chip)
        try driver.configure(IMUSettings(sampleRateHz: chip == .mpu6050 ? 1000 : 952))
        try driver.startFIFO()
        var samples: [MotionSample] = []
        // Far more than the FIFO holds (three FIFOs' worth for the LSM6DSx's kilobyte FIFOs).
        clock.advance(by: max(0.5, 3 * Double(driver.capabilities.fifoCapacity) / driver.configuration.sampleRate.hertz))
        let overflowed = try driver.drainFIFO(into: &samples)
        #expect(overflowed.dropped > 400)
        // What came out (if anything) is whole samples of a face-up device, never shifted bytes.
        for sample in samples { #expect((sample.acceleration - Vector3(0, 0, -1)).length < 0.05) }
        samples.removeAll()
        clock.advance(by: 0.02)
        let next = try driver.drainFIFO(into: &samples)
        #expect(next.dropped == 0)
        #expect(samples.count >= 15)
        for sample in samples { #expect((sample.acceleration - Vector3(0, 0, -1)).length < 0.05) }
    }

    @Test(arguments: chips)
    func asleepTheChipStopsMeasuring(_ chip: ChipModel) throws {
        let (_, driver, clock) = board(chip, MotionScenarios.named("spin")!)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        try driver.sleep()
        let first = try driver.readSample()
        clock.advance(by: 0.5)
        let later = try driver.readSample()
        #expect(first.rotationRate == later.rotationRate && first.acceleration == later.acceleration)
        try driver.wake()
        clock.advance(by: 0.05)
        let awake = try driver.readSample()
        #expect(abs(awake.rotationRate.z) > 0.1, "spinning about z once awake: \(awake.rotationRate)")
    }

    @Test(arguments: chips)
    func dataReadyRaisesTheInterruptLine(_ chip: ChipModel) throws {
        let (board, driver, clock) = board(chip)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        let line = try #require(board.interruptLines[board.profile.imus[0].address])
        #expect(!board.gpio.level(of: line))
        try driver.enableInterrupt(.dataReady)
        clock.advance(by: 0.02)
        #expect(board.gpio.level(of: line))
    }

    @Test func anMPU9250IsNamedNotMisread() throws {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: .mpu6050, clock: clock, whoAmI: 0x71)
        let driver = MPU6050(bus: board.bus, clock: clock)
        #expect {
            try driver.configure(IMUSettings())
        } throws: { error in
            "\(error)".contains("MPU-9250") && "\(error)".contains("read 0x71")
        }
    }

    /// A magnetometer, the rate its chip is configured at, and how close its field must be (µT).
    struct FieldRow: Sendable, CustomTestStringConvertible {
        let chip: ChipModel
        let sampleRateHz: Double
        let toleranceMicrotesla: Double
        var testDescription: String { chip.rawValue }
    }

    /// The magnetometer's axes (not those of the accel/gyro part) are turned into the chip's
    /// accel/gyro axes by the driver: with a perfect twin, the field read is the field there.
    /// The LSM6DSx boards' LIS3MDL through its own sensitivity (6842 LSB/gauss at ±4 gauss, not
    /// the LSM9DS1's 0.14 mgauss/LSB).
    @Test(arguments: [
        FieldRow(chip: .lsm9ds1, sampleRateHz: 119, toleranceMicrotesla: 0.1),
        FieldRow(chip: .mpu9250, sampleRateHz: 119, toleranceMicrotesla: 0.1),
        FieldRow(chip: .lsm6ds3, sampleRateHz: 104, toleranceMicrotesla: 0.05),
        FieldRow(chip: .lsm6dsl, sampleRateHz: 104, toleranceMicrotesla: 0.05),
        FieldRow(chip: .lsm6dsox, sampleRateHz: 104, toleranceMicrotesla: 0.05),
    ], [Pose.faceUp, .upright, .landscapeLeft, .onBack])
    func theMagneticFieldComesOutInTheAccelGyroAxes(_ row: FieldRow, _ pose: Pose) throws {
        let (board, driver, clock) = board(row.chip, PoseScenario(pose), errors: .perfect)
        try driver.configure(IMUSettings(sampleRateHz: row.sampleRateHz, magnetometerRangeGauss: 4))
        clock.advance(by: 0.1)
        let field = try #require(try driver.readSample().magneticField)
        let truth = board.deviceTruthNow.magneticFieldMicrotesla
        #expect((field - truth).length < row.toleranceMicrotesla, "read \(field), truth \(truth)")
    }

    /// A board whose chip is turned (the sim board's LSM9DS1: x and y reversed): after the
    /// mounting, the device axes read the device's truth.
    @Test func theMountingTurnsChipAxesIntoDeviceAxes() throws {
        let clock = VirtualClock()
        let placement = IMUPlacement(chip: .lsm9ds1, address: 0x6A, magnetometerAddress: 0x1C, mounting: AxisRotation(["-x", "-y", "+z"])!)
        let profile = BoardProfile(name: "turned", title: "turned", kind: .hat, imus: [placement])
        let board = VirtualBoard(profile: profile, scenario: PoseScenario(.landscapeRight), errors: .perfect, clock: clock)
        let driver = placement.makeDriver(bus: board.bus, clock: clock)
        try driver.configure(IMUSettings(sampleRateHz: 119))
        let chipSample = try driver.readSample()
        let device = placement.deviceSample(chipSample)
        #expect((chipSample.acceleration - Vector3(-1, 0, 0)).length < 0.001)
        #expect((device.acceleration - Vector3(1, 0, 0)).length < 0.001)
        #expect((try #require(device.magneticField) - board.deviceTruthNow.magneticFieldMicrotesla).length < 0.1)
    }
}
