import IMUBus
import IMUDrivers
import IMUGeometry
import Testing
@testable import IMUTwin

@Suite struct MPU6050EmulatorTests {
    let clock = VirtualClock()

    func board(_ scenario: any MotionScenario = PoseScenario(.faceUp), errors: SensorErrorModel = .perfect, seed: UInt64 = 1) -> VirtualBoard {
        VirtualBoard(chip: .mpu6050, scenario: scenario, errors: errors, seed: seed, clock: clock)
    }

    @Test func whoAmIAndPowerOnDefaults() throws {
        let b = board()
        #expect(try b.bus.readRegister(0x68, 0x75) == 0x68)
        #expect(try b.bus.readRegister(0x68, 0x6B) == 0x40)  // asleep at power-up
        #expect(try b.bus.readRegister(0x68, 0x1B) == 0x00)
        let other = VirtualBoard(chip: .mpu6050, clock: clock, whoAmI: 0x71)
        #expect(try other.bus.readRegister(0x68, 0x75) == 0x71)
    }

    @Test func startsAsleepAndDataStaysStillUntilWoken() throws {
        let b = board()
        clock.advance(by: 0.1)
        #expect(try b.bus.bytes(0x68, 0x3B, 14) == [UInt8](repeating: 0, count: 14))
        clock.advance(by: 0.1)
        #expect(try b.bus.bytes(0x68, 0x3B, 14) == [UInt8](repeating: 0, count: 14))
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        clock.advance(by: 0.01)
        let data = try b.bus.bytes(0x68, 0x3B, 14)
        #expect(int16BigEndian(data, 4) == 16384)
    }

    @Test(arguments: [(0, 16384), (1, 8192), (2, 4096), (3, 2048)])
    func faceUpReadsPlusOneGOnZAtEveryRange(setting: Int, lsbPerG: Int) throws {
        let b = board()
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        try b.bus.writeRegister(0x68, 0x1C, UInt8(setting << 3))
        clock.advance(by: 0.01)
        let data = try b.bus.bytes(0x68, 0x3B, 14)
        #expect(int16BigEndian(data, 0) == 0)
        #expect(int16BigEndian(data, 2) == 0)
        #expect(Int(int16BigEndian(data, 4)) == lsbPerG)
        // Temperature at 25 °C: (25 − 36.53) · 340 = −3920.2.
        #expect(int16BigEndian(data, 6) == -3920)
        #expect(int16BigEndian(data, 8) == 0 && int16BigEndian(data, 12) == 0)
    }

    @Test func gyroScaleFollowsFullScaleSetting() throws {
        let b = board(ClosureScenario.spin)  // 90 °/s about z
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        try b.bus.writeRegister(0x68, 0x1B, 0x08)  // ±500 °/s: 65.5 LSB/°/s
        clock.advance(by: 0.05)
        let data = try b.bus.bytes(0x68, 0x3B, 14)
        #expect(abs(Int(int16BigEndian(data, 12)) - 5895) <= 1)
    }

    @Test func aBurstOfFourteenBytesIsOneTransaction() throws {
        let b = board()
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        b.bus.resetTransactionCounts()
        _ = try b.bus.bytes(0x68, 0x3B, 14)
        #expect(b.bus.transactionCount(for: 0x68) == 1)
        #expect(b.bus.transactionCount == 1)
    }

    @Test func fifoFillsAtTheSampleRateAndOverflowsWithTheFlag() throws {
        let b = board()
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        try b.bus.writeRegister(0x68, 0x19, 9)      // 1 kHz / 10 = 100 Hz (DLPF 0 → 8 kHz: set DLPF 1)
        try b.bus.writeRegister(0x68, 0x1A, 0x01)
        try b.bus.writeRegister(0x68, 0x23, 0x78)   // gyro x, y, z + accel: 12 bytes per sample
        try b.bus.writeRegister(0x68, 0x6A, 0x44)   // FIFO_EN + FIFO_RESET
        clock.advance(by: 0.5)
        let count = try b.bus.bytes(0x68, 0x72, 2)
        let bytes = Int(count[0]) << 8 | Int(count[1])
        #expect(abs(bytes - 50 * 12) <= 12)
        #expect(try b.bus.readRegister(0x68, 0x3A) & 0x10 == 0)
        // The first FIFO sample is the accel set: z = +1 g.
        let sample = try b.bus.bytes(0x68, 0x74, 12)
        #expect(int16BigEndian(sample, 4) == 16384)
        clock.advance(by: 2)
        #expect(try b.bus.readRegister(0x68, 0x3A) & 0x10 != 0)
        let full = try b.bus.bytes(0x68, 0x72, 2)
        #expect(Int(full[0]) << 8 | Int(full[1]) == 1024)
    }

    @Test func forcedFIFOOverflowSetsTheFlag() throws {
        let b = board()
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        try b.bus.writeRegister(0x68, 0x23, 0x08)
        try b.bus.writeRegister(0x68, 0x6A, 0x40)
        b.forceFIFOOverflow(address: 0x68)
        #expect(try b.bus.readRegister(0x68, 0x3A) & 0x10 != 0)
    }

    @Test func dataReadyDrivesTheLatchedINTLineUntilStatusIsRead() throws {
        let b = board()
        let line = try b.gpio.requestInput(line: 4, consumer: "test", edge: .both, bias: .asIs)
        try b.bus.writeRegister(0x68, 0x37, 0x20)  // active high, push-pull, latched
        try b.bus.writeRegister(0x68, 0x38, 0x01)  // DATA_RDY_EN
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        #expect(try line.read() == false)
        let edge = try line.waitForEdge(timeout: 0.1)
        #expect(edge?.kind == .rising)
        #expect(try line.read() == true)
        #expect(try b.bus.readRegister(0x68, 0x3A) & 0x01 == 0x01)
        #expect(try line.read() == false)
    }

    @Test func unpluggedChipNACKsAndComesBackWithDefaults() throws {
        let b = board()
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        try b.bus.writeRegister(0x68, 0x1C, 0x18)
        b.unplug(b.profile.imus[0], for: 1, identityAfterReplug: 0x70)
        #expect(throws: I2CError.self) { try b.bus.readRegister(0x68, 0x75) }
        do {
            _ = try b.bus.readRegister(0x68, 0x75)
        } catch {
            #expect(error.kind == .noAcknowledge)
        }
        clock.advance(by: 1.5)
        #expect(try b.bus.readRegister(0x68, 0x6B) == 0x40)
        #expect(try b.bus.readRegister(0x68, 0x1C) == 0x00)
        #expect(try b.bus.readRegister(0x68, 0x75) == 0x70)
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        func read(seed: UInt64) throws -> [UInt8] {
            let c = VirtualClock()
            let b = VirtualBoard(chip: .mpu6050, scenario: ClosureScenario.walk, errors: .typical, seed: seed, clock: c)
            try b.bus.writeRegister(0x68, 0x6B, 0x00)
            var all: [UInt8] = []
            for _ in 0..<5 {
                c.advance(by: 0.037)
                all += try b.bus.bytes(0x68, 0x3B, 14)
            }
            return all
        }
        #expect(try read(seed: 7) == read(seed: 7))
        #expect(try read(seed: 7) != read(seed: 8))
    }

    @Test func motionInterruptOnShakeWithHighPassOn() throws {
        let b = board(ClosureScenario.shake)
        try b.bus.writeRegister(0x68, 0x6B, 0x00)
        try b.bus.writeRegister(0x68, 0x1C, 0x01)  // ±2 g, high-pass 5 Hz
        try b.bus.writeRegister(0x68, 0x1F, 20)    // 40 mg
        try b.bus.writeRegister(0x68, 0x20, 5)     // 5 ms
        clock.advance(by: 0.5)
        #expect(try b.bus.readRegister(0x68, 0x3A) & 0x40 != 0)
    }
}
