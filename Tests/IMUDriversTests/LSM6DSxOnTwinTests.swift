import IMUBoards
import IMUBus
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUDrivers

/// The LSM6DSx driver (LSM6DS3, LSM6DSL/LSM6DS3TR-C, LSM6DSOX) and its LIS3MDL against the twin.
/// `DriversOnTwinTests` runs its chip-generic checks on these parts too.
@Suite struct LSM6DSxOnTwinTests {
    static let chips: [ChipModel] = [.lsm6ds3, .lsm6dsl, .lsm6dsox]

    func board(_ chip: ChipModel, _ scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .calibrated)
        -> (VirtualBoard, any IMUDriver, VirtualClock)
    {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: chip, scenario: scenario, errors: errors, seed: 7, clock: clock)
        return (board, board.profile.imus[0].makeDriver(bus: board.bus, clock: clock), clock)
    }

    @Test(arguments: chips)
    func twoTransactionsPerSampleSetWithTheLIS3MDL(_ chip: ChipModel) throws {
        let (board, driver, clock) = board(chip)
        try driver.configure(IMUSettings(sampleRateHz: 104))
        #expect(driver.configuration.sampleRate.hertz == 104)
        board.bus.resetTransactionCounts()
        for _ in 0..<100 {
            let sample = try driver.readSample()
            #expect(sample.magneticField != nil)
            #expect(abs(try #require(sample.temperature) - 25) < 0.1)
            clock.advance(by: 1 / 104.0)
        }
        #expect(board.bus.transactionCount == 200)
    }

    /// Each range's sensitivity (DS Table 3): the same field at ±4 and ±16 gauss.
    @Test func everyLIS3MDLRangeReadsTheSameField() throws {
        var fields: [Vector3] = []
        for range in [4.0, 8, 12, 16] {
            let (_, driver, clock) = board(.lsm6dsl, errors: .perfect)
            try driver.configure(IMUSettings(magnetometerRangeGauss: range))
            #expect(driver.configuration.magnetometerScale?.range == range)
            clock.advance(by: 0.1)
            fields.append(try #require(try driver.readSample().magneticField))
        }
        for field in fields { #expect((field - fields[0]).length < 0.1, "\(fields)") }
    }

    /// Without an LIS3MDL on the board the part reads six axes and says so.
    @Test func withoutTheLIS3MDLThePartReadsSixAxes() throws {
        let clock = VirtualClock()
        let placement = IMUPlacement(chip: .lsm6dsl, address: 0x6B)
        let profile = BoardProfile(name: "six", title: "six", kind: .hat, imus: [placement])
        let board = VirtualBoard(profile: profile, scenario: PoseScenario(.faceUp), errors: .calibrated, clock: clock)
        let driver = placement.makeDriver(bus: board.bus, clock: clock)
        try driver.configure(IMUSettings())
        #expect(!driver.capabilities.magnetometer)
        let sample = try driver.readSample()
        #expect(sample.magneticField == nil)
        #expect((sample.acceleration - Vector3(0, 0, -1)).length < 0.02)
    }

    /// The pattern FIFO (DS3, DSL) and the tagged one (DSOX): every sample out, in bursts of
    /// three transactions, none lost.
    @Test(arguments: chips)
    func theFIFOKeepsEverySampleInThreeTransactionsABatch(_ chip: ChipModel) throws {
        let (board, driver, clock) = board(chip, MotionScenarios.named("spin")!)
        try driver.configure(IMUSettings(sampleRateHz: 833))
        try driver.startFIFO()
        board.bus.resetTransactionCounts()
        var samples: [MotionSample] = []
        for _ in 0..<50 {
            clock.advance(by: 0.02)
            let batch = try driver.drainFIFO(into: &samples)
            #expect(batch.dropped == 0)
            #expect(batch.transactions == 3)
        }
        #expect(abs(samples.count - 833) <= 1)
        #expect(board.bus.transactionCount == 150)
        #expect(samples.allSatisfy { $0.magneticField != nil })
        // Spinning about z: the gyro and accel halves of every set paired (never shifted).
        #expect(samples.allSatisfy { abs($0.rotationRate.z) > 0.1 && abs($0.acceleration.z + 1) < 0.1 }, "\(samples.prefix(3))")
        for (a, b) in zip(samples, samples.dropFirst()) { #expect(b.timestamp > a.timestamp) }
    }

    /// The low-power watch: gyro off, accelerometer alone in low-power mode at 26 Hz, wake-up
    /// latched on INT1, and the way back to the configured measurement with the LIS3MDL.
    @Test(arguments: chips)
    func theLowPowerWatchWakesOnAShake(_ chip: ChipModel) throws {
        let (board, driver, clock) = board(chip, MotionScenarios.named("shake")!)
        try driver.configure(IMUSettings(sampleRateHz: 104))
        let rate = try driver.watchForMotion(thresholdG: 0.5, durationMilliseconds: 20, rateHz: 25)
        #expect(rate == 26)
        #expect(try board.bus.readRegister(0x6A, 0x11) == 0)           // CTRL2_G: gyro off
        #expect(try board.bus.readRegister(0x6A, 0x15) == 0x10)        // CTRL6_C: XL_HM_MODE
        #expect(try board.bus.readRegister(0x6A, 0x10) >> 4 == 2)      // CTRL1_XL: 26 Hz
        #expect(try board.bus.readRegister(0x6A, 0x5E) == 0x20)        // MD1_CFG: INT1_WU
        #expect(try board.bus.readRegister(0x1C, 0x22) & 0x03 == 0x03) // LIS3MDL powered down
        #expect(try driver.isWatchingForMotion())
        let line = try #require(board.interruptLines[0x6A])
        #expect(board.lineRises(line, clock: clock, steps: 100, every: 0.02))
        try driver.endMotionWatch()
        #expect(try !driver.isWatchingForMotion())
        #expect(!board.gpio.level(of: line))
        clock.advance(by: 0.05)
        let sample = try driver.readSample()
        #expect(sample.magneticField != nil && sample.rotationRate.length > 0)
    }

    @Test(arguments: chips)
    func aPowerCutIsSeen(_ chip: ChipModel) throws {
        let (board, driver, clock) = board(chip)
        try driver.configure(IMUSettings(sampleRateHz: 104))
        #expect(try driver.isConfigured())
        board.unplug(board.profile.imus[0], for: 0.1)
        clock.advance(by: 0.2)
        #expect(try !driver.isConfigured())
        #expect { try driver.readSample() } throws: { "\($0)".contains("not measuring") }
    }

    /// An LSM6DSOX where an LSM6DSL was expected, and a part of another map (0x6B, an LSM6DSR)
    /// are named and refused, never misread.
    @Test func anotherIdentityIsNamedAndRefused() throws {
        for (answer, name) in [(UInt8(0x6C), "LSM6DSOX"), (0x6B, "LSM6DSR/ISM330DHCX")] {
            let clock = VirtualClock()
            let board = VirtualBoard(chip: .lsm6dsl, clock: clock, whoAmI: answer)
            let driver = board.profile.imus[0].makeDriver(bus: board.bus, clock: clock)
            #expect {
                try driver.configure(IMUSettings())
            } throws: { error in
                "\(error)".contains(name) && "\(error)".contains("read \(hex(answer))")
            }
        }
    }
}

/// `imu probe`'s survey on the new boards' twins: the parts named, the LIS3MDL paired with the
/// part beside it though it answers as an LSM9DS1's magnetometer does.
@Suite struct LSM6DSxSurveyTests {
    @Test(arguments: [(ChipModel.lsm6dsl, "LSM6DSL/LSM6DS3TR-C"), (.lsm6dsox, "LSM6DSOX"), (.lsm6ds3, "LSM6DS3")])
    func theSurveyNamesThePartAndItsLIS3MDL(_ model: ChipModel, _ name: String) throws {
        let clock = VirtualClock()
        let survey = try BusSurvey.survey(VirtualBoard(chip: model, clock: clock).bus)
        #expect(survey.addresses == [0x1C, 0x6A])
        #expect(survey.chips == [FoundChip(model: model, address: 0x6A, magnetometerAddress: 0x1C, part: name)])
        #expect(survey.chips.first?.magnetometerPart == "LIS3MDL")
        #expect(survey.chips.first?.capabilities.contains("magnetometer") == true)
    }

    @Test func anLSM9DS1KeepsItsOwnMagnetometer() throws {
        let survey = try BusSurvey.survey(VirtualBoard(chip: .lsm9ds1, clock: VirtualClock()).bus)
        #expect(survey.chips == [FoundChip(model: .lsm9ds1, address: 0x6A, magnetometerAddress: 0x1C)])
        #expect(survey.chips.first?.magnetometerPart == nil)
    }
}

/// A bus that reads at most 32 bytes at a time, as an SMBus-only adapter does (`LinuxI2CBus`'s
/// fallback): a longer register read is split, each part starting at the next register.
final class ThirtyTwoByteBus: I2CBus {
    let inner: VirtualI2CBus
    private(set) var pieces: [(register: UInt8, count: Int)] = []
    init(_ inner: VirtualI2CBus) { self.inner = inner }
    var name: String { inner.name }
    var longestRead: Int { 32 }
    func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try inner.transaction(address, operations)
    }
    func readRegisters(_ address: UInt8, _ register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        var offset = 0
        while offset < buffer.count {
            let end = min(buffer.count, offset + 32)
            let start = register &+ UInt8(truncatingIfNeeded: offset)
            pieces.append((start, end - offset))
            try inner.readRegisters(address, start, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<end]))
            offset = end
        }
    }
}

@Suite struct LSM6DSxSMBusFIFOTests {
    /// The FIFO's output registers are a port (the chip wraps within them): over an adapter that
    /// reads 32 bytes at a time the driver reads them in pieces, each addressing the port at the
    /// byte it has reached, and every set comes out whole.
    @Test(arguments: [ChipModel.lsm6dsl, .lsm6dsox])
    func theFIFOIsReadInPiecesTheBusCanDo(_ chip: ChipModel) throws {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: chip, scenario: MotionScenarios.named("spin")!, errors: .calibrated, seed: 7, clock: clock)
        let bus = ThirtyTwoByteBus(board.bus)
        let placement = board.profile.imus[0]
        let driver = placement.chip.part.makeDriver(DriverWiring(
            bus: bus, address: placement.address, magnetometerAddress: placement.magnetometerAddress, clock: clock))
        try driver.configure(IMUSettings(sampleRateHz: 416))
        try driver.startFIFO()
        var samples: [MotionSample] = []
        for _ in 0..<10 {
            clock.advance(by: 0.05)
            let batch = try driver.drainFIFO(into: &samples)
            #expect(batch.dropped == 0)
        }
        #expect(abs(samples.count - 208) <= 1)
        #expect(samples.allSatisfy { abs($0.rotationRate.z) > 0.1 && abs($0.acceleration.z + 1) < 0.1 }, "\(samples.prefix(3))")
        #expect(bus.pieces.allSatisfy { $0.count <= 32 })
    }
}
