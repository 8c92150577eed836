import IMUFrontEnd
import Foundation
import IMUBus
import IMUDevices
import IMUDrivers
import IMUEngine
import IMUTwin
import Testing
@testable import IMUShare

/// Power follows the socket's demand: the twin's chip sleeps (its power registers say so) while
/// no client subscribes, wakes at a subscription, and sleeps again when the client unsubscribes
/// or just goes away.
@Suite(.serialized) struct PowerFollowsDemandTests {
    func isAsleep(_ board: VirtualBoard) throws -> Bool {
        switch board.profile.imus[0].chip {
        // PWR_MGMT_1 (0x6B) bit 6, SLEEP (MPU-6000/MPU-6050 register map, "Power Management 1").
        case .mpu6050, .mpu6500, .mpu9250: try board.bus.readRegister(0x68, 0x6B) & 0x40 != 0
        // CTRL_REG1_G (0x10) all zero: ODR_G power-down (LSM9DS1 datasheet, CTRL_REG1_G).
        case .lsm9ds1: try board.bus.readRegister(0x6A, 0x10) == 0
        // PWR_MGMT_1 (bank 0, 0x06) bit 6, SLEEP (ICM-20948 DS-000189 §8.4).
        case .icm20948: try board.bus.readRegister(0x68, 0x06) & 0x40 != 0
        // CTRL1_XL (0x10) all zero: ODR_XL power-down (LSM6DSL datasheet §9.16).
        case .lsm6ds3, .lsm6dsl, .lsm6dsox: try board.bus.readRegister(0x6A, 0x10) == 0
        }
    }

    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try condition() { return true }
            usleep(5000)
        }
        return try condition()
    }

    @Test(arguments: [ChipModel.mpu6050, .lsm9ds1])
    func theChipSleepsUntilAClientSubscribes(_ chip: ChipModel) throws {
        let board = VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .typical, seed: 7, clock: VirtualClock())
        let engine = MotionEngine(
            device: try SimulatedHardware.device(of: board), settings: .init(rateHz: 100, calibration: SensorCalibration(file: nil)))
        let server = ShareServer(settings: .init(path: temporarySocketPath()), feed: EngineFeed(engine: engine))
        try server.start()
        engine.start()
        defer {
            server.stop()
            engine.stop()
        }
        // A client connected but not subscribed is no demand.
        let idle = try LineClient(path: server.settings.path)
        #expect(idle.object()?["type"] == .string("hello"))
        #expect(try eventually { try isAsleep(board) })

        let client = try LineClient(path: server.settings.path)
        _ = client.line()
        client.send(#"{"op":"subscribe","stream":"motion"}"# + "\n")
        #expect(client.object()?["type"] == .string("subscribed"))
        // Data comes (a loaded machine may first say that lines were lost, which is data too).
        var first = client.line()
        while first?.hasPrefix("{\"type\":\"lost\"") == true { first = client.line() }
        #expect(first?.hasPrefix("{\"t\":") == true, "\(String(describing: first))")
        #expect(try !isAsleep(board))

        client.send(#"{"op":"unsubscribe"}"# + "\n")
        #expect(try eventually { try isAsleep(board) })

        // Subscribed again, then gone without a word: its subscription ends with it.
        let leaving = try LineClient(path: server.settings.path)
        _ = leaving.line()
        leaving.send(#"{"op":"subscribe","stream":"samples"}"# + "\n")
        #expect(leaving.object()?["type"] == .string("subscribed"))
        #expect(leaving.line()?.hasPrefix("{\"t\":") == true)
        #expect(try !isAsleep(board))
        shutdown(leaving.fd, Int32(SHUT_RDWR))
        #expect(try eventually { try isAsleep(board) })
    }
}
