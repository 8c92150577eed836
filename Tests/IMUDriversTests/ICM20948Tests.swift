import IMUBoards
import IMUBus
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUDrivers

/// The ICM-20948 and its AK09916 against the twin: identity in bank 0, bank switching kept out
/// of the per-sample path, bank-2 rates, ranges and filters, the magnetometer's axes, FIFO,
/// interrupts, wake-on-motion, the low-power watch, power cuts.
@Suite struct ICM20948Tests {
    func twin(_ scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .calibrated, whoAmI: UInt8? = nil)
        -> (VirtualBoard, ICM20948, VirtualClock)
    {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: .icm20948, scenario: scenario, errors: errors, seed: 5, clock: clock, whoAmI: whoAmI)
        let driver = board.profile.imus[0].makeDriver(bus: board.bus, clock: clock) as! ICM20948
        return (board, driver, clock)
    }

    /// Reads a bank-2 register as a user with i2cget would, leaving bank 0 selected again.
    func bank2(_ board: VirtualBoard, _ register: UInt8) throws -> UInt8 {
        try board.bus.writeRegister(0x68, 0x7F, 0x20)
        defer { try? board.bus.writeRegister(0x68, 0x7F, 0x00) }
        return try board.bus.readRegister(0x68, register)
    }

    // MARK: Identity

    @Test func theTwinsWhoAmIIsInBankZeroAndTheAK09916HidesBehindTheBypass() throws {
        let (board, _, _) = twin()
        #expect(try board.bus.readRegister(0x68, 0x00) == 0xEA)
        // Power-on: the bypass is closed, so 0x0C does not acknowledge.
        #expect(throws: (any Error).self) { try board.bus.readRegister(0x0C, 0x01) }
        #expect(try KnownParts.identify(on: board.bus, at: 0x68)?.part == "ICM-20948")
    }

    /// Another program left bank 2 selected: WHO_AM_I (bank 0) is still found.
    @Test func aBankLeftSelectedByAnotherProgramIsNoObstacle() throws {
        let (board, driver, _) = twin()
        try board.bus.writeRegister(0x68, 0x7F, 0x20)
        try driver.configure(IMUSettings())
        #expect(try board.bus.readRegister(0x68, 0x7F) == 0x00)
    }

    /// Other TDK parts with the same bank-0 WHO_AM_I register are named and refused; unknown
    /// values are refused without a name.
    @Test(arguments: [(UInt8(0xE0), "ICM-20648" as String?), (0xE1, "ICM-20649"), (0x71, nil), (0x00, nil)])
    func otherValuesAreNamedAndRefused(_ whoAmI: UInt8, _ named: String?) throws {
        let (board, driver, _) = twin(whoAmI: whoAmI)
        #expect {
            try driver.configure(IMUSettings())
        } throws: { error in
            guard case let IMUDriverError.wrongChip(_, _, expected, register, found, expectedValue, identifiedAs) = error else { return false }
            return expected == .icm20948 && register == 0x00 && found == whoAmI && expectedValue == 0xEA && identifiedAs == named
        }
        let probed = try KnownParts.identify(on: board.bus, at: 0x68)
        #expect(probed?.part == named && probed?.model == nil)
    }

    @Test func aMagnetometerThatIsNotAnAK09916IsRefused() throws {
        let (board, driver, _) = twin()
        board.chips[0x0C]!.overrideIdentity(0x48)
        #expect {
            try driver.configure(IMUSettings())
        } throws: { error in
            "\(error)".contains("at 0x0c") && "\(error)".contains("register 0x01") && "\(error)".contains("expected 0x09")
        }
    }

    // MARK: Configuration

    /// DS §10: at 100 Hz the gyro divider 10 (1.1 kHz / 11), the accelerometer's 10 (1.125 kHz /
    /// 11 = 102.3 Hz); DLPF 23.9 Hz (gyro code 4) and 50.4 Hz (accel code 3), each the widest at
    /// or below half its rate; ±500 °/s (code 1), ±4 g (code 1); the AK09916 in continuous mode 4.
    @Test func configureWritesTheBankTwoRegisters() throws {
        let (board, driver, _) = twin()
        try driver.configure(IMUSettings(accelerometerRangeG: 4, gyroscopeRangeDegreesPerSecond: 500, sampleRateHz: 100, magnetometerRateHz: 100))
        #expect(try bank2(board, 0x00) == 10)
        #expect(try bank2(board, 0x01) == 4 << 3 | 1 << 1 | 1)
        #expect(try bank2(board, 0x10) == 0)
        #expect(try bank2(board, 0x11) == 10)
        #expect(try bank2(board, 0x14) == 3 << 3 | 1 << 1 | 1)
        #expect(try board.bus.readRegister(0x0C, 0x31) == 0x08)
        #expect(driver.configuration.sampleRate.hertz == 100)
        #expect(driver.configuration.lowPassBandwidthHz == 23.9)
        #expect(driver.configuration.magnetometerRate?.hertz == 100)
    }

    // MARK: Readings

    /// Lying still: |acc| = 1 g, the field the scenario's (perfect parts), the temperature the twin's.
    @Test(arguments: [Pose.faceUp, .upright, .landscapeRight, .faceDown])
    func nineAxesLyingStill(_ pose: Pose) throws {
        let (board, driver, clock) = twin(PoseScenario(pose), errors: .perfect)
        try driver.configure(IMUSettings(sampleRateHz: 100, magnetometerRateHz: 100))
        clock.advance(by: 0.05)
        let sample = try driver.readSample()
        #expect(abs(sample.acceleration.length - 1) < 0.01)
        #expect((sample.acceleration - (-1) * board.deviceTruthNow.specificForceG).length < 0.01)
        let field = try #require(sample.magneticField)
        #expect((field - board.deviceTruthNow.magneticFieldMicrotesla).length < 0.5, "\(pose): \(field)")
        #expect(abs(try #require(sample.temperature) - 25) < 0.01)
    }

    /// DS §11: the AK09916's x is the accelerometer's x, its y and z the accelerometer's −y, −z.
    @Test func theAK09916FieldIsTurnedIntoTheAccelAxes() {
        #expect(IMUDrivers.AK09916Registers.axesInAccelGyroFrame.apply(Vector3(1, 2, 3)) == Vector3(1, -2, -3))
    }

    /// ST2 HOFL: an overflowed measurement is no field; the last good one is given again.
    @Test func anOverflowedMeasurementKeepsTheLastField() throws {
        let bus = RegisterFileBus(devices: [0x68, 0x0C])
        bus.set(0x68, 0x00, [0xEA])
        bus.set(0x0C, 0x01, [0x09])
        let chip = ICM20948(bus: bus, clock: TestClock())
        try chip.configure(IMUSettings())
        bus.set(0x68, 0x2D, bigEndian([0, 0, 8192]))
        bus.set(0x0C, 0x10, [0x01] + littleEndian([100, 200, 300]) + [0, 0])
        let good = try #require(try chip.readSample().magneticField)
        #expect((good - Vector3(15, -30, -45)).length < 1e-9)
        bus.set(0x0C, 0x10, [0x01] + littleEndian([32752, 32752, 32752]) + [0, 0x08])
        #expect(try chip.readSample().magneticField == good)
    }

    // MARK: FIFO

    @Test func theFIFOGivesTheSamplesInOrder() throws {
        let (board, driver, clock) = twin(errors: .perfect)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        try driver.startFIFO()
        clock.advance(by: 0.2)
        var samples: [MotionSample] = []
        let batch = try driver.drainFIFO(into: &samples)
        #expect((19...21).contains(batch.count), "\(batch)")
        #expect(batch.transactions == 3)
        for sample in samples {
            #expect(abs(sample.acceleration.z + 1) < 0.01)
            #expect(sample.magneticField != nil)
        }
        #expect(zip(samples, samples.dropFirst()).allSatisfy { abs($1.timestamp - $0.timestamp - 0.01) < 1e-9 })
        board.forceFIFOOverflow(address: 0x68)
        let overflow = try driver.drainFIFO(into: &samples)
        #expect(overflow.count == 0 && overflow.dropped > 0)
        clock.advance(by: 0.1)
        #expect((9...11).contains(try driver.drainFIFO(into: &samples).count))
        try driver.stopFIFO()
    }

    // MARK: Interrupts and power

    @Test func dataReadyRaisesTheLatchedINTUntilTheStatusIsRead() throws {
        let (board, driver, clock) = twin()
        try driver.configure(IMUSettings(sampleRateHz: 100))
        let line = try #require(board.interruptLines[0x68])
        try driver.enableInterrupt(.dataReady)
        clock.advance(by: 0.015)
        #expect(board.gpio.level(of: line))
        #expect(try board.bus.readRegister(0x68, 0x1A) == 0x01)  // INT_STATUS_1 RAW_DATA_0_RDY_INT
        #expect(!board.gpio.level(of: line))
        try driver.disableInterrupts()
        clock.advance(by: 0.05)
        #expect(!board.gpio.level(of: line))
    }

    /// The low-power watch: gyros off, LP_EN and ACCEL_CYCLE, the accelerometer at the divider's
    /// rate nearest 30 Hz (1.125 kHz / 38), WOM armed; a shake raises INT; back with the field.
    @Test func theLowPowerWatch() throws {
        let (board, driver, clock) = twin(MotionScenarios.named("shake")!)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        let rate = try driver.watchForMotion(thresholdG: 0.5, durationMilliseconds: 20, rateHz: 30)
        #expect(abs(rate - 1125.0 / 38) < 1e-9)
        for (register, value) in [(UInt8(0x06), UInt8(0x29)), (0x07, 0x07), (0x05, 0x20), (0x10, 0x08), (0x11, 0x00)] {
            #expect(try board.bus.readRegister(0x68, register) == value, "bank 0 register \(hex(register))")
        }
        #expect(try bank2(board, 0x11) == 37)
        #expect(try bank2(board, 0x12) == 0x03)
        #expect(try bank2(board, 0x13) == 125)
        #expect(try board.bus.readRegister(0x0C, 0x31) == 0)  // the AK09916 powered down
        #expect(try driver.isWatchingForMotion())
        let line = try #require(board.interruptLines[0x68])
        #expect(board.lineRises(line, clock: clock, steps: 100, every: 0.02))
        try driver.endMotionWatch()
        #expect(try !driver.isWatchingForMotion())
        #expect(try bank2(board, 0x11) == 10)
        clock.advance(by: 0.05)
        let sample = try driver.readSample()
        #expect(sample.magneticField != nil && sample.magneticField != .zero)
        #expect(abs(sample.acceleration.length - 1) < 2.5)
    }

    @Test func aPowerCutIsSeen() throws {
        let (board, driver, clock) = twin()
        try driver.configure(IMUSettings(sampleRateHz: 100))
        #expect(try driver.isConfigured())
        board.unplug(board.profile.imus[0], for: 0.1)
        clock.advance(by: 0.2)
        #expect(try board.bus.readRegister(0x68, 0x06) == 0x41)
        #expect(try !driver.isConfigured())
        #expect(throws: IMUDriverError.self) { try driver.readSample() }
        try driver.configure(IMUSettings(sampleRateHz: 100))
        #expect(try driver.isConfigured())
    }

    @Test func sleepAndWake() throws {
        let (board, driver, clock) = twin()
        try driver.configure(IMUSettings(sampleRateHz: 100))
        try driver.sleep()
        #expect(try board.bus.readRegister(0x68, 0x06) & 0x40 != 0)
        #expect(try board.bus.readRegister(0x0C, 0x31) == 0)
        try driver.wake()
        clock.advance(by: 0.02)
        let sample = try driver.readSample()
        #expect(abs(sample.acceleration.z + 1) < 0.05)
        #expect(try board.bus.readRegister(0x0C, 0x31) == 0x06)  // 40 Hz asked: continuous mode 3, 50 Hz
    }
}
