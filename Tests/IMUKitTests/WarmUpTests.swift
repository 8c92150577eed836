import IMUDrivers
import IMUGeometry
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// Device motion is nil until the fusion estimate is valid (one second of samples), then right.
@Suite struct WarmUpTests {
    @Test func deviceMotionIsNilBeforeWarmUpThenValid() async throws {
        let clock = ParkingClock(limit: 0.3)
        let board = VirtualBoard(chip: .mpu6050, scenario: PoseScenario(.faceUp), clock: clock)
        let manager = try MotionManager(board: board)
        manager.startDeviceMotionUpdates()
        #expect(manager.isDeviceMotionActive)
        await clock.parkedInBackground()
        #expect(manager.deviceMotion == nil)

        clock.release(until: 3)
        await clock.parkedInBackground()
        let motion = try #require(manager.deviceMotion)
        #expect(motion.timestamp > 2.9)
        #expect((motion.gravity - Vector3(0, 0, -1)).length < 0.02, "\(motion.gravity)")
        #expect(motion.attitude.referenceFrame == .xArbitraryZVertical)
        #expect(motion.heading == nil)

        manager.stopDeviceMotionUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
    }

    /// The type's documentation example, as written there (in real time: about a second of
    /// warm-up; a free-running virtual clock would spin while the consumer waits its turn).
    @Test func theDocumentationExampleRuns() async throws {
        let board = VirtualBoard(chip: .lsm9ds1, clock: RealTimeClock())   // the twin, in real time
        let manager = try MotionManager(board: board, requiring: [.accelerometer, .gyroscope])
        manager.accelerometerUpdateInterval = 0.01          // 100 Hz
        manager.startAccelerometerUpdates()                 // poll: read the latest when you like
        if let data = manager.accelerometerData { print(data.timestamp, data.acceleration) }
        for try await motion in manager.deviceMotionUpdates(using: .xArbitraryZVertical) {
            print(motion.attitude.roll, motion.gravity)     // push: every sample after warm-up
            break
        }
        manager.stopAccelerometerUpdates()                  // the last consumer: the chip sleeps
        await offPool { manager.waitUntilAcquisitionEnds() }
        #expect(try board.bus.readRegister(0x6A, 0x10) == 0)
    }
}
