import Dispatch
import IMUDrivers
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// What the hardware has decides what is offered; what the program declares decides what is refused.
@Suite struct CapabilityTests {
    @Test func aRequiredMagnetometerOnAnMPU6050IsAClearError() {
        let board = VirtualBoard(chip: .mpu6050, clock: VirtualClock())
        #expect(throws: MotionManagerError.missingCapabilities(.magnetometer, chip: .mpu6050)) {
            try MotionManager(board: board, requiring: [.accelerometer, .gyroscope, .magnetometer])
        }
        let error = MotionManagerError.missingCapabilities(.magnetometer, chip: .mpu6050)
        #expect(error.description == "this program needs a magnetometer, which the MPU-6050 does not have")
    }

    @Test func withoutTheDeclarationAnMPU6050Offers6D() async throws {
        let manager = try MotionManager(board: VirtualBoard(chip: .mpu6050, clock: VirtualClock()))
        #expect(manager.isAccelerometerAvailable && manager.isGyroAvailable && manager.isDeviceMotionAvailable)
        #expect(!manager.isMagnetometerAvailable)
        #expect(manager.availableReferenceFrames == [.xArbitraryZVertical])
        // Unavailable sources do nothing when polled, and tell a handler why.
        manager.startMagnetometerUpdates()
        #expect(!manager.isMagnetometerActive)
        let queue = DispatchQueue(label: "errors")
        let errors = Collected<MotionManagerError>()
        manager.startDeviceMotionUpdates(using: .xMagneticNorthZVertical, to: queue) { _, error in
            if let error = error as? MotionManagerError { errors.append(error) }
        }
        await offPool { queue.sync {} }
        #expect(errors.all == [.referenceFrameUnavailable(.xMagneticNorthZVertical)])
        #expect(!manager.isDeviceMotionActive)
    }

    @Test func anLSM9DS1OffersTheNorthFramesAndTrueNorthWithADeclination() throws {
        let manager = try MotionManager(board: VirtualBoard(chip: .lsm9ds1, clock: VirtualClock()), requiring: [.magnetometer])
        #expect(manager.availableReferenceFrames == [.xArbitraryZVertical, .xArbitraryCorrectedZVertical, .xMagneticNorthZVertical])
        manager.declinationDegrees = 4.5
        #expect(manager.availableReferenceFrames.contains(.xTrueNorthZVertical))
    }

    @Test func updateIntervalsAreClampedToWhatTheChipCanDo() throws {
        let manager = try MotionManager(board: VirtualBoard(chip: .lsm9ds1, clock: VirtualClock()))
        #expect(manager.accelerometerUpdateInterval == 0.01)
        manager.gyroUpdateInterval = 0.0001
        #expect(manager.gyroUpdateInterval == 1 / 952.0)
        manager.magnetometerUpdateInterval = 10
        #expect(manager.magnetometerUpdateInterval == 1)
    }
}
