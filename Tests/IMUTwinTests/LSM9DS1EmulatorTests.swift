import IMUBus
import IMUDrivers
import IMUGeometry
import Testing
@testable import IMUTwin

@Suite struct LSM9DS1EmulatorTests {
    let clock = VirtualClock()

    func board(_ scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .perfect) -> VirtualBoard {
        VirtualBoard(chip: .lsm9ds1, scenario: scenario, errors: errors, clock: clock)
    }

    @Test func whoAmIOfBothParts() throws {
        let b = board()
        #expect(try b.bus.readRegister(0x6A, 0x0F) == 0x68)
        #expect(try b.bus.readRegister(0x1C, 0x0F) == 0x3D)
        #expect(b.bus.addresses == [0x1C, 0x6A])
    }

    @Test(arguments: [(0, 0.061), (1, 0.732), (2, 0.122), (3, 0.244)])
    func faceUpAccelAtEveryRange(setting: Int, milligPerLSB: Double) throws {
        let b = board()
        try b.bus.writeRegister(0x6A, 0x20, UInt8(0x20 | setting << 3))  // 10 Hz accel only
        clock.advance(by: 0.25)
        let data = try b.bus.bytes(0x6A, 0x28, 6)
        #expect(Int(int16LittleEndian(data, 4)) == Int((1000 / milligPerLSB).rounded()))
        #expect(int16LittleEndian(data, 0) == 0)
    }

    @Test func burstFromGyroRunsOnIntoAccelWhenBothAreOn() throws {
        let b = board(ClosureScenario.spin)
        try b.bus.writeRegister(0x6A, 0x10, 0x60)  // 119 Hz, 245 dps: 8.75 mdps/LSB
        clock.advance(by: 0.1)
        let data = try b.bus.bytes(0x6A, 0x18, 12)
        #expect(abs(Int(int16LittleEndian(data, 4)) - Int((90_000 / 8.75).rounded())) <= 1)
        #expect(int16LittleEndian(data, 10) == Int16((1000 / 0.061).rounded()))
        // 0x2D wraps back to 0x18: 18 bytes = gyro, accel, gyro.
        let wrapped = try b.bus.bytes(0x6A, 0x18, 18)
        #expect(Array(wrapped[12..<18]) == Array(wrapped[0..<6]))
    }

    @Test func magnetometerIncrementsOnlyWithTheSubAddressMSB() throws {
        let b = board()
        try b.bus.writeRegister(0x1C, 0x22, 0x00)  // continuous
        clock.advance(by: 0.5)
        let plain = try b.bus.bytes(0x1C, 0x28, 6)
        #expect(plain.allSatisfy { $0 == plain[0] })
        let incremented = try b.bus.bytes(0x1C, 0x28 | 0x80, 6)
        // Berlin, face up, in magnetometer axes (x reversed): (−1.49, 18.92, −45.82) µT at 0.14 mgauss/LSB.
        let field = LSM9DS1Registers.magnetometerAxesFromAccelGyroAxes * EarthField.berlin.enuMicrotesla
        for axis in 0..<3 {
            let expected = Int((field[axis] / 0.014).rounded())
            #expect(abs(Int(int16LittleEndian(incremented, 2 * axis)) - expected) <= 1)
        }
        #expect(plain[0] == incremented[0])
    }

    @Test func magnetometerStartsPoweredDown() throws {
        let b = board()
        #expect(try b.bus.readRegister(0x1C, 0x22) == 0x03)
        clock.advance(by: 1)
        #expect(try b.bus.bytes(0x1C, 0x28 | 0x80, 6) == [0, 0, 0, 0, 0, 0])
    }

    @Test func fifoFillsAtODRAndOverrunsInContinuousMode() throws {
        let b = board()
        try b.bus.writeRegister(0x6A, 0x10, 0x20)  // 14.9 Hz gyro + accel
        try b.bus.writeRegister(0x6A, 0x23, 0x02)  // FIFO_EN
        try b.bus.writeRegister(0x6A, 0x2E, 0xC0)  // continuous
        clock.advance(by: 1)
        let source = try b.bus.readRegister(0x6A, 0x2F)
        #expect(abs(Int(source & 0x3F) - 15) <= 1)
        #expect(source & 0x40 == 0)
        // Reading one level (12 bytes from OUT_X_G) uses it up.
        _ = try b.bus.bytes(0x6A, 0x18, 12)
        #expect(Int(try b.bus.readRegister(0x6A, 0x2F) & 0x3F) == Int(source & 0x3F) - 1)
        clock.advance(by: 3)
        let full = try b.bus.readRegister(0x6A, 0x2F)
        #expect(full & 0x3F == 32)
        #expect(full & 0x40 != 0)
    }

    @Test func int1FollowsAccelDataReady() throws {
        let b = board()
        let line = try b.gpio.requestInput(line: 4, consumer: "test", edge: .rising, bias: .asIs)
        try b.bus.writeRegister(0x6A, 0x0C, 0x01)  // INT1_DRDY_XL
        try b.bus.writeRegister(0x6A, 0x20, 0x40)  // 50 Hz accel only
        let edge = try line.waitForEdge(timeout: 0.1)
        #expect(edge != nil)
        #expect(try line.read() == true)
        _ = try b.bus.bytes(0x6A, 0x28, 6)
        #expect(try line.read() == false)
    }
}
