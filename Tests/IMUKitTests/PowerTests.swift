import IMUBus
import IMUDrivers
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// The chip runs while anyone consumes it and sleeps when the last one stops, as its registers
/// show: MPU-6050/6500/9250 PWR_MGMT_1 (0x6B) SLEEP bit 0x40; LSM9DS1 CTRL_REG1_G (0x10) zero (power-down).
@Suite struct PowerTests {
    func isAsleep(_ board: VirtualBoard) throws -> Bool {
        switch board.profile.imus[0].chip {
        case .mpu6050, .mpu6500, .mpu9250: try board.bus.readRegister(0x68, 0x6B) & 0x40 != 0
        case .lsm9ds1: try board.bus.readRegister(0x6A, 0x10) == 0
        // PWR_MGMT_1 (bank 0, 0x06) bit 6, SLEEP (ICM-20948 DS-000189 §8.4).
        case .icm20948: try board.bus.readRegister(0x68, 0x06) & 0x40 != 0
        // CTRL1_XL (0x10) all zero: ODR_XL power-down (LSM6DSL datasheet §9.16).
        case .lsm6ds3, .lsm6dsl, .lsm6dsox: try board.bus.readRegister(0x6A, 0x10) == 0
        }
    }

    @Test(arguments: ChipModel.allCases)
    func theChipSleepsWhenTheLastConsumerStops(_ chip: ChipModel) async throws {
        let clock = ParkingClock(limit: 1)
        let board = VirtualBoard(chip: chip, clock: clock)
        let manager = try MotionManager(board: board)
        manager.startAccelerometerUpdates()
        manager.startGyroUpdates()
        await clock.parkedInBackground()
        #expect(try !isAsleep(board))
        #expect(manager.isAccelerometerActive && manager.isGyroActive)

        // One consumer left: the chip keeps running.
        manager.stopAccelerometerUpdates()
        #expect(!manager.isAccelerometerActive && manager.isGyroActive)
        clock.release(until: 2)
        await clock.parkedInBackground()
        #expect(try !isAsleep(board))
        let gyro = try #require(manager.gyroData)
        #expect(gyro.timestamp > 1.9)

        manager.stopGyroUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        #expect(try isAsleep(board))
        #expect(!manager.isGyroActive)
    }

    @Test func aFinishedStreamIsAConsumerGone() async throws {
        // Parked at 1 s: the loop waits for the consumer instead of spinning ahead of it.
        let clock = ParkingClock(limit: 1)
        let board = VirtualBoard(chip: .mpu6050, clock: clock)
        let manager = try MotionManager(board: board)
        var count = 0
        for try await _ in manager.gyroUpdates() {
            count += 1
            if count == 10 { break }
        }
        // Breaking out of the loop ends the stream; it was the only consumer.
        #expect(!manager.isGyroActive)
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        #expect(try isAsleep(board))
    }
}
