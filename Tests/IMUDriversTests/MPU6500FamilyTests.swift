import IMUBoards
import IMUBus
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUDrivers

/// The MPU-6500 / MPU-9250 family: identities (the makers', the clones accepted, the values
/// refused), the register-map differences from the MPU-6050, and the MPU-9250's AK8963.
@Suite struct MPU6500FamilyTests {
    func twin(_ chip: ChipModel, _ scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .calibrated,
              whoAmI: UInt8? = nil) -> (VirtualBoard, InvenSenseIMU, VirtualClock) {
        let clock = VirtualClock()
        let board = VirtualBoard(chip: chip, scenario: scenario, errors: errors, seed: 11, clock: clock, whoAmI: whoAmI)
        let driver = board.profile.imus[0].makeDriver(bus: board.bus, clock: clock) as! InvenSenseIMU
        return (board, driver, clock)
    }

    // MARK: Identity

    @Test(arguments: [(ChipModel.mpu6500, UInt8(0x70), "MPU-6500"), (.mpu9250, 0x71, "MPU-9250"), (.mpu9250, 0x73, "MPU-9255")])
    func theMakersIdentitiesAreRead(_ chip: ChipModel, _ whoAmI: UInt8, _ part: String) throws {
        let (_, driver, _) = twin(chip, whoAmI: whoAmI)
        try driver.configure(IMUSettings())
        #expect(driver.identity?.part == part)
        #expect(driver.identity?.clone == nil)
    }

    /// Clones sold as MPU-6500 / MPU-9250 that answer 0x74, 0x75 or 0x78 follow the MPU-6500 map
    /// (`ChipParts.mpu6500`): read as six-axis parts, and said to be clones.
    @Test(arguments: [UInt8(0x74), 0x75, 0x78])
    func acceptedClonesAreReadWithTheMPU6500Map(_ whoAmI: UInt8) throws {
        let (_, driver, clock) = twin(.mpu6500, whoAmI: whoAmI)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        #expect(driver.identity?.clone?.contains(hex(whoAmI)) == true)
        clock.advance(by: 0.05)
        let sample = try driver.readSample()
        #expect(abs(sample.acceleration.z + 1) < 0.03)
        #expect(sample.magneticField == nil)
    }

    /// A value no row accepts is named when it is a known part, and refused either way.
    @Test(arguments: [
        (ChipModel.mpu6500, UInt8(0x98), nil as String?), (.mpu6500, 0x68, "MPU-6050"), (.mpu6500, 0x71, "MPU-9250"),
        (.mpu9250, 0x70, "MPU-6500"), (.mpu9250, 0x75, "MPU-6500 clone"), (.mpu6050, 0x73, "MPU-9255"), (.mpu9250, 0x00, nil),
    ])
    func otherValuesAreNamedAndRefused(_ chip: ChipModel, _ whoAmI: UInt8, _ named: String?) throws {
        let (_, driver, _) = twin(chip, whoAmI: whoAmI)
        #expect {
            try driver.configure(IMUSettings())
        } throws: { error in
            guard case let IMUDriverError.wrongChip(_, _, expected, register, found, _, identifiedAs) = error else { return false }
            return expected == chip && register == 0x75 && found == whoAmI && identifiedAs == named
                && "\(error)".contains("read \(hex(whoAmI))")
        }
    }

    /// An MPU-9250 package whose AK8963 does not answer WIA 0x48 is refused, naming the register.
    @Test func aMagnetometerThatIsNotAnAK8963IsRefused() throws {
        let (board, driver, _) = twin(.mpu9250)
        board.chips[0x0C]!.overrideIdentity(0xFF)
        #expect {
            try driver.configure(IMUSettings())
        } throws: { error in
            "\(error)".contains("at 0x0c") && "\(error)".contains("register 0x00") && "\(error)".contains("expected 0x48")
        }
    }

    // MARK: Register-map differences (plain register files: exact bytes)

    func registerFile(_ whoAmI: UInt8 = 0x71) -> (RegisterFileBus, TestClock) {
        let bus = RegisterFileBus(devices: [0x68, 0x0C])
        bus.set(0x68, 0x75, [whoAmI])
        bus.set(0x0C, 0x00, [0x48])
        return (bus, TestClock())
    }

    /// RM9 §4.5 and §4.8: the gyro filter in CONFIG, the accelerometer's own in ACCEL_CONFIG 2;
    /// the bypass opened for the AK8963 (INT_PIN_CFG BYPASS_EN), which is set to 16-bit
    /// continuous mode 2 (CNTL1 0x16).
    @Test func configureWritesTheSixtyFiveHundredRegisters() throws {
        let (bus, clock) = registerFile()
        let chip = InvenSenseIMU(.mpu9250, bus: bus, clock: clock)
        try chip.configure(IMUSettings(sampleRateHz: 100, magnetometerRateHz: 100))
        #expect(bus.get(0x68, 0x1A) == 3)       // DLPF_CFG 3: 41 Hz ≤ 50 Hz
        #expect(bus.get(0x68, 0x1D) == 3)       // A_DLPF_CFG 3: 44.8 Hz
        #expect(bus.get(0x68, 0x19) == 9)       // 1 kHz / (1 + 9)
        #expect(bus.get(0x68, 0x37) & 0x02 != 0)
        #expect(bus.get(0x0C, 0x0A) == 0x16)
        #expect(chip.configuration.lowPassBandwidthHz == 41)
        #expect(chip.configuration.magnetometerRate?.hertz == 100)
    }

    /// RM9 Registers 65–66: °C = TEMP_OUT / 333.87 + 21.
    @Test func temperatureUsesTheSixtyFiveHundredFormula() throws {
        let (bus, clock) = registerFile(0x70)
        let chip = InvenSenseIMU(.mpu6500, bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        bus.set(0x68, 0x3B, bigEndian([0, 0, 8192, 3339, 0, 0, 0]))
        let sample = try chip.readSample()
        #expect(abs(try #require(sample.temperature) - (3339 / 333.87 + 21)) < 1e-9)
    }

    /// RM9 Table 1: FIFO_COUNTH holds FIFO_CNT[12:8]; the bits above are not a count.
    @Test func theFIFOCountIsThirteenBits() throws {
        let (bus, clock) = registerFile(0x70)
        let chip = InvenSenseIMU(.mpu6500, bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        try chip.startFIFO()
        bus.set(0x68, 0x72, [0xE0, 24])  // reserved bits set, 24 bytes = 2 frames
        bus.set(0x68, 0x74, bigEndian([0, 0, 8192, 0, 0, 0]))
        var samples: [MotionSample] = []
        let batch = try chip.drainFIFO(into: &samples)
        #expect(batch.count == 2)
    }

    /// RM9 §5 ASAX–ASAZ and PS9 §9.1: each axis scaled by (ASA − 128) / 256 + 1, 0.15 µT/LSB,
    /// and turned into the accel/gyro axes: x = AK8963 y, y = AK8963 x, z = −AK8963 z.
    @Test func theAK8963FieldIsAdjustedAndTurned() throws {
        let (bus, clock) = registerFile()
        bus.set(0x0C, 0x10, [128, 192, 64])    // adjustments 1, 1.25, 0.75
        let chip = InvenSenseIMU(.mpu9250, bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        bus.set(0x68, 0x3B, bigEndian([0, 0, 8192]))
        bus.set(0x0C, 0x02, [0x01] + littleEndian([1000, -2000, 400]) + [0x10])
        let field = try #require(try chip.readSample().magneticField)
        let expected = Vector3(-2000 * 0.15 * 1.25, 1000 * 0.15 * 1.0, -(400 * 0.15 * 0.75))
        #expect((field - expected).length < 1e-9, "\(field) vs \(expected)")
    }

    /// ST2 HOFL: an overflowed measurement is no field; the last good one is given again.
    @Test func anOverflowedMeasurementKeepsTheLastField() throws {
        let (bus, clock) = registerFile()
        bus.set(0x0C, 0x10, [128, 128, 128])
        let chip = InvenSenseIMU(.mpu9250, bus: bus, clock: clock)
        try chip.configure(IMUSettings())
        bus.set(0x68, 0x3B, bigEndian([0, 0, 8192]))
        bus.set(0x0C, 0x02, [0x01] + littleEndian([100, 200, 300]) + [0x10])
        let good = try #require(try chip.readSample().magneticField)
        bus.set(0x0C, 0x02, [0x01] + littleEndian([32760, 32760, 32760]) + [0x18])
        #expect(try chip.readSample().magneticField == good)
    }

    // MARK: Against the twin

    /// Lying still: |acc| ≈ 1 g, and the field is the Earth's field of the scenario (within the
    /// calibrated error model's hard iron).
    @Test func lyingStillTheNineAxesRead() throws {
        let (board, driver, clock) = twin(.mpu9250, errors: .perfect)
        try driver.configure(IMUSettings(sampleRateHz: 100, magnetometerRateHz: 100))
        clock.advance(by: 0.05)
        let sample = try driver.readSample()
        #expect(abs(sample.acceleration.length - 1) < 0.01)
        let field = try #require(sample.magneticField)
        #expect((field - board.deviceTruthNow.magneticFieldMicrotesla).length < 0.5)
    }

    /// PS9 §6.1: the low-power watch's registers, the INT line raised by a shake (at 31.25 Hz a
    /// sample of the shake changes by up to 0.75 g), and the way back with the magnetometer.
    @Test func theLowPowerWatchFollowsTheWakeOnMotionFlowchart() throws {
        let (board, driver, clock) = twin(.mpu9250, MotionScenarios.named("shake")!)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        let rate = try driver.watchForMotion(thresholdG: 0.5, durationMilliseconds: 20, rateHz: 30)
        #expect(rate == 31.25)
        let expected: [(UInt8, UInt8)] = [
            (0x6B, 0x28), (0x6C, 0x07), (0x1E, 7), (0x69, 0xC0), (0x1F, 125), (0x38, 0x40), (0x1D, 0x09),
        ]
        for (register, value) in expected {
            #expect(try board.bus.readRegister(0x68, register) == value, "register \(hex(register))")
        }
        #expect(try driver.isWatchingForMotion())
        let line = try #require(board.interruptLines[0x68])
        #expect(board.lineRises(line, clock: clock, steps: 100, every: 0.02))
        try driver.endMotionWatch()
        #expect(try !driver.isWatchingForMotion())
        clock.advance(by: 0.05)
        #expect(try driver.readSample().magneticField != nil)
    }

    /// The 6500 map wakes at CLKSEL = 1 by itself (PWR_MGMT_1 resets to 0x01), so a power cut
    /// is seen in CONFIG, which reads 0 again.
    @Test func aPowerCutIsSeenThoughThePartWakesRunning() throws {
        let (board, driver, clock) = twin(.mpu9250)
        try driver.configure(IMUSettings(sampleRateHz: 100))
        #expect(try driver.isConfigured())
        board.unplug(board.profile.imus[0], for: 0.1)
        clock.advance(by: 0.2)
        #expect(try board.bus.readRegister(0x68, 0x6B) == 0x01)
        #expect(try !driver.isConfigured())
    }
}
