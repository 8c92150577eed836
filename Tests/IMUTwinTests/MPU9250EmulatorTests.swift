import IMUBus
import IMUDrivers
import IMUGeometry
import Testing
@testable import IMUTwin

/// The MPU-9250 twin register by register: the 6500 map's defaults, the bypass that hides the
/// AK8963, the AK8963's fuse ROM, data protection until ST2, its own axes and its sensitivity.
@Suite struct MPU9250EmulatorTests {
    let clock = VirtualClock()

    func board(_ scenario: any MotionScenario = PoseScenario(.faceUp)) -> VirtualBoard {
        VirtualBoard(chip: .mpu9250, scenario: scenario, errors: .perfect, seed: 3, clock: clock)
    }

    func openBypass(_ b: VirtualBoard) throws {
        try b.bus.writeRegister(0x68, 0x37, 0x02)  // INT_PIN_CFG BYPASS_EN
    }

    /// RM9 Table 1: PWR_MGMT_1 resets to 0x01 (running), WHO_AM_I 0x71; FIFO_COUNTH 5 bits.
    @Test func powerOnDefaultsOfTheSixtyFiveHundredMap() throws {
        let b = board()
        #expect(try b.bus.readRegister(0x68, 0x75) == 0x71)
        #expect(try b.bus.readRegister(0x68, 0x6B) == 0x01)
        clock.advance(by: 0.01)
        #expect(int16BigEndian(try b.bus.bytes(0x68, 0x3B, 6), 4) == 16384)  // measuring: +1 g at ±2 g
    }

    /// PS9 §4.11: the AK8963 is reached only through the bypass, and not while the MPU's own
    /// I²C master drives the auxiliary bus.
    @Test func theMagnetometerIsBehindTheBypass() throws {
        let b = board()
        #expect(try b.bus.scan() == [0x68])
        try openBypass(b)
        #expect(try b.bus.scan() == [0x0C, 0x68])
        #expect(try b.bus.readRegister(0x0C, 0x00) == 0x48)
        try b.bus.writeRegister(0x68, 0x6A, 0x20)  // USER_CTRL I2C_MST_EN
        #expect(throws: I2CError.self) { try b.bus.readRegister(0x0C, 0x00) }
    }

    /// RM9 §5: ASAX–ASAZ read correctly only in fuse ROM access mode.
    @Test func theFuseROMIsReadableInItsModeOnly() throws {
        let b = board()
        try openBypass(b)
        let twin = try #require(b.chips[0x0C] as? AK8963Emulator)
        #expect(try b.bus.bytes(0x0C, 0x10, 3) == [0, 0, 0])
        try b.bus.writeRegister(0x0C, 0x0A, 0x0F)
        #expect(try b.bus.bytes(0x0C, 0x10, 3) == [twin.sensitivity.x, twin.sensitivity.y, twin.sensitivity.z])
    }

    /// Data protection: after ST1 and the data are read, new measurements wait for ST2; DRDY
    /// then DOR report what happened in between.
    @Test func aDataReadEndsWithST2() throws {
        let b = board(ClosureScenario(name: "turning", summary: "turning about z at 1 rad/s") { t in
            MotionTruth(attitude: Quaternion(axis: Vector3(0, 0, 1), angle: t))
        })
        try openBypass(b)
        try b.bus.writeRegister(0x0C, 0x0A, 0x16)  // 16-bit, continuous 100 Hz
        clock.advance(by: 0.015)
        let first = try b.bus.bytes(0x0C, 0x02, 7)   // ST1 + data, no ST2
        #expect(first[0] & 0x01 != 0)                 // DRDY
        clock.advance(by: 0.05)                        // five measurements later
        #expect(try b.bus.bytes(0x0C, 0x03, 6) == Array(first[1...6]))  // still held
        _ = try b.bus.readRegister(0x0C, 0x09)        // ST2 releases them
        let next = try b.bus.bytes(0x0C, 0x03, 6)
        #expect(next != Array(first[1...6]))
    }

    /// PS9 §9.1 and §3.3: lying face up in Berlin, the AK8963 reports its own axes (x = device y, y = device x, z = −device z),
    /// 0.15 µT/LSB divided by each axis's adjustment.
    @Test func itsOwnAxesAndSensitivity() throws {
        let b = board()
        try openBypass(b)
        let twin = try #require(b.chips[0x0C] as? AK8963Emulator)
        try b.bus.writeRegister(0x0C, 0x0A, 0x16)
        clock.advance(by: 0.015)
        let bytes = try b.bus.bytes(0x0C, 0x02, 8)
        #expect(bytes[7] == 0x10)  // ST2: BITM (16-bit), no overflow
        let truth = b.deviceTruthNow.magneticFieldMicrotesla
        let own = Vector3(truth.y, truth.x, -truth.z)
        let codes = [twin.sensitivity.x, twin.sensitivity.y, twin.sensitivity.z]
        for axis in 0..<3 {
            let adjustment = (Double(codes[axis]) - 128) / 256 + 1
            let expected = own[axis] / (0.15 * adjustment)
            #expect(abs(Double(int16LittleEndian(bytes, 1 + 2 * axis)) - expected) <= 0.5, "axis \(axis)")
        }
    }
}
