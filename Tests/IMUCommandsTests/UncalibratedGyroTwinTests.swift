import IMUBus
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUCommands

#if canImport(Glibc)
import Glibc
import IMUDevices
import IMUEngine
import IMUFormats
#endif

/// The twin with the zero-rate offsets the datasheets allow and nothing calibrated, through
/// what `imu stream --sim` runs (driver, fixed-point fusion, device motion): lying still from
/// power-up, the tilt is right to 1° and the user acceleration ≤ 0.02 g from 2 s on. The
/// other errors are left out (no accelerometer offset, scale or cross-axis error), so what is
/// measured is what the gyro's offset does.
@Suite struct UncalibratedGyroTwinTests {
    /// Offsets drawn up to ±20°/s per axis (the MPU-6050's tolerance, inside the LSM9DS1's ±30).
    static let offsetsOnly = SensorErrorModel(
        name: "gyro-offsets", noiseScale: 1, gyroBiasDegreesPerSecond: 20, accelBiasG: 0,
        scaleErrorFraction: 0, crossAxisFraction: 0, hardIronMicrotesla: 0, softIronFraction: 0)

    struct Outcome {
        var offsetsDegreesPerSecond: Vector3
        var worstTiltDegrees = 0.0
        var worstUserAccelerationG = 0.0
        /// Samples checked (from 2 s on).
        var checked = 0
    }

    static func run(pose: Pose, board: String, seed: UInt64, seconds: Double = 8) throws -> Outcome {
        let profile = try Hardware.profile(named: board)
        let placement = try #require(profile.imus.first)
        let clock = VirtualClock()
        let twin = VirtualBoard(profile: profile, scenario: PoseScenario(pose), errors: offsetsOnly, seed: seed, clock: clock)
        let session = IMUDevice(
            bus: twin.bus, clock: clock, board: profile, placement: placement,
            driver: placement.makeDriver(bus: twin.bus, clock: clock), keepAlive: twin)
        // The chip's offsets, drawn as the twin draws them (from the seed and the address).
        let chipSeed = seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(placement.address)
        let offsets = SensorErrors(model: offsetsOnly, noise: MPU6050Registers.noise, seed: chipSeed).gyroBiasRadiansPerSecond
        var outcome = Outcome(offsetsDegreesPerSecond: offsets * (180 / .pi))
        // The engine as `imu events` runs it on an uncalibrated MPU-6050 (6D, no calibration file).
        let engine = MotionEngine(device: session, settings: .init(rateHz: 100, duration: seconds, calibration: SensorCalibration(file: nil)))
        engine.observe([.motion]) { output in
            guard case .motion(let motion) = output, motion.timestamp >= 2 else { return }
            let cosine = motion.gravity.normalized.dot(pose.gravityG)
            outcome.worstTiltDegrees = max(outcome.worstTiltDegrees, acos(min(1, max(-1, cosine))) * 180 / .pi)
            outcome.worstUserAccelerationG = max(outcome.worstUserAccelerationG, motion.userAcceleration.length)
            outcome.checked += 1
        }
        try engine.run()
        return outcome
    }

    @Test("still from power-up with offsets up to ±20°/s: tilt ≤ 1°, user acceleration ≤ 0.02 g from 2 s on",
          arguments: EventTrials.boards)
    func stillFromPowerUp(board: String) throws {
        for seed: UInt64 in [1, 2, 3] {
            for pose in [Pose.faceUp, .upright] {
                let outcome = try Self.run(pose: pose, board: board, seed: seed)
                let name = "\(board), seed \(seed), \(pose.rawValue), offsets \(outcome.offsetsDegreesPerSecond) °/s"
                #expect(outcome.checked >= 590, "\(name): \(outcome.checked) samples checked")
                print("\(name): tilt \(outcome.worstTiltDegrees)°, user acceleration \(outcome.worstUserAccelerationG) g")
                #expect(outcome.worstTiltDegrees <= 1, "\(name): tilt \(outcome.worstTiltDegrees)°")
                #expect(outcome.worstUserAccelerationG <= 0.02, "\(name): user acceleration \(outcome.worstUserAccelerationG) g")
            }
        }
    }
}
