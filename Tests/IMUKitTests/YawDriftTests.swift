import Dispatch
import Foundation
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// Yaw drift on the twin with the gyro bias of a typical uncalibrated part (up to 3 °/s per
/// axis, well within the datasheets' ±20/±30 °/s), lying still for five minutes, through the
/// motion manager. Drift is the change of the yaw error (against the twin's truth) per minute.
@Suite struct YawDriftTests {
    static let seconds = 300.0
    static let degrees = 180 / Double.pi

    /// The yaw error (reported yaw minus the truth's, wrapped to ±180°) at the update nearest `t`.
    func yawError(_ motions: [DeviceMotion], at t: Double, board: VirtualBoard) -> Double {
        let m = motions.min { abs($0.timestamp - t) < abs($1.timestamp - t) }!
        let truth = board.scenario.deviceTruth(at: m.timestamp - board.scenarioStart, earthField: board.earthField)
        let e = (m.attitude.yaw - truth.attitude.eulerAngles.yaw) * Self.degrees
        return (e + 540).truncatingRemainder(dividingBy: 360) - 180
    }

    /// Degrees per minute from `from` to `to`, unwrapped (a drift of more than 180° between two
    /// samples 1 s apart cannot happen, so the error is followed second by second).
    func drift(_ motions: [DeviceMotion], from: Double, to: Double, board: VirtualBoard) -> Double {
        var total = 0.0
        var previous = yawError(motions, at: from, board: board)
        for t in stride(from: from + 1, through: to, by: 1) {
            let e = yawError(motions, at: t, board: board)
            var step = e - previous
            if step > 180 { step -= 360 } else if step < -180 { step += 360 }
            total += step
            previous = e
        }
        return total / (to - from) * 60
    }

    func typicalTwin(_ chip: ChipModel, clock: ParkingClock) -> VirtualBoard {
        VirtualBoard(chip: chip, scenario: PoseScenario(.faceUp), errors: .typical, clock: clock)
    }

    /// The chip's raw rotation rate while still: its bias (device axes, rad/s).
    func measuredBias(_ chip: ChipModel) async throws -> Vector3 {
        let clock = ParkingClock(limit: 3)
        let manager = try MotionManager(board: typicalTwin(chip, clock: clock), calibration: .none)
        let queue = DispatchQueue(label: "gyro")
        let rates = Collected<Vector3>()
        manager.startGyroUpdates(to: queue) { data, _ in if let data { rates.append(data.rotationRate) } }
        await clock.parkedInBackground()
        manager.stopGyroUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }
        return rates.all.reduce(Vector3.zero, +) / Double(rates.all.count)
    }

    /// Without a magnetometer nothing holds the heading: the arbitrary frame would drift at the
    /// vertical component of a bias the filter had not learnt. The fusion core measures any
    /// offset the datasheets allow while the device lies still (rest from the rate's variation,
    /// not its size), so these uncalibrated parts — reading more than ±2 °/s on some axis, where
    /// rest used to ignore them and the frame turned at the whole vertical bias — hold still.
    @Test(arguments: [ChipModel.mpu6050, .lsm9ds1])
    func theArbitraryFrameHoldsStillWithAnUncalibratedGyro(chip: ChipModel) async throws {
        let bias = try await measuredBias(chip)
        let clock = ParkingClock(limit: Self.seconds)
        let board = typicalTwin(chip, clock: clock)
        let motions = try await recordDeviceMotion(board, clock: clock, frame: .xArbitraryZVertical, seconds: Self.seconds)
        let measured = drift(motions, from: 30, to: Self.seconds, board: board)
        // Face up, the vertical is the device's z: yaw turns at the z bias.
        let expected = bias.z * Self.degrees * 60
        print("xArbitraryZVertical, \(chip.rawValue), typical twin, uncalibrated gyro (bias \(bias * Self.degrees) °/s): drift \(measured) °/min, vertical bias \(expected) °/min")
        #expect(abs(expected) > 10, "the twin's part has a vertical bias to show")
        // Not a turn at the vertical bias (−49 and +128 °/min for these parts): as still as
        // with a stored gyro calibration (0.004 °/min below).
        #expect(abs(measured) < 0.01 * abs(expected), "drift \(measured) °/min, vertical bias \(expected) °/min")
    }

    /// A compass calibration as `imu calibrate mag` makes it: the part's raw field through a
    /// full tumble (through the manager, so the board's mounting applies), fitted, stored.
    func storedCompassCalibration(_ chip: ChipModel, in directory: String) async throws -> CalibrationChoice {
        let clock = ParkingClock(limit: 40)
        let board = VirtualBoard(chip: chip, scenario: ClosureScenario.tumble, errors: .typical, clock: clock)
        let manager = try MotionManager(board: board, calibration: .none)
        manager.magnetometerUpdateInterval = 0.05
        let queue = DispatchQueue(label: "compass")
        let fields = Collected<Vector3>()
        manager.startMagnetometerUpdates(to: queue) { data, _ in if let data { fields.append(data.magneticField) } }
        await clock.parkedInBackground()
        manager.stopMagnetometerUpdates()
        clock.release(until: .infinity)
        await offPool { manager.waitUntilAcquisitionEnds() }
        await offPool { queue.sync {} }
        let fit = try MagnetometerFit.calibrate(fields.all).calibration
        try CalibrationStore.save(
            CalibrationFile(chip: manager.chipIdentity, magnetometer: .init(fit, calibratedAt: Date())), in: directory)
        return .searching([directory])
    }

    /// The magnetometer holds the heading of `xArbitraryCorrectedZVertical` against the same bias,
    /// and, with the compass calibrated (the gyro still not), the fusion core learns the vertical
    /// bias from the heading corrections.
    @Test func theCorrectedFrameStopsTheDrift() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-kit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let compass = try await storedCompassCalibration(.lsm9ds1, in: directory)
        let clock = ParkingClock(limit: Self.seconds)
        let board = typicalTwin(.lsm9ds1, clock: clock)
        let motions = try await recordDeviceMotion(
            board, clock: clock, frame: .xArbitraryCorrectedZVertical, seconds: Self.seconds, calibration: compass)
        let settledDrift = drift(motions, from: 180, to: Self.seconds, board: board)
        let fromWarmUp = drift(motions, from: 30, to: Self.seconds, board: board)
        let offset = yawError(motions, at: Self.seconds, board: board) - yawError(motions, at: 2, board: board)
        print("xArbitraryCorrectedZVertical, LSM9DS1, typical twin, calibrated compass, uncalibrated gyro: drift \(settledDrift) °/min over 3–5 min, \(fromWarmUp) °/min over 0.5–5 min; yaw moved \(offset)° in all")
        #expect(abs(settledDrift) <= 1, "drift \(settledDrift) °/min once settled")
        // The part's z bias is beyond the ±2 °/s that rest detection accepts, so only the
        // heading corrections can teach it (9D): without that, the heading would slide bias × τ
        // behind over the first minutes (73° on this part) and then hold.
        #expect(abs(fromWarmUp) <= 1, "drift \(fromWarmUp) °/min from warm-up on")
        #expect(abs(offset) <= 5, "yaw moved \(offset)° in all")
    }

    /// An uncalibrated compass's heading error changes with orientation; it must not be learnt as
    /// gyro bias: the filter keeps its rest-learnt bias range, and the corrected frame still
    /// holds the heading (bias × τ behind) instead of tilting.
    @Test func anUncalibratedCompassDoesNotTeachTheBias() async throws {
        let clock = ParkingClock(limit: 30)
        let board = VirtualBoard(chip: .lsm9ds1, scenario: PoseSequenceScenario.seeds, errors: .typical, clock: clock)
        let motions = try await recordDeviceMotion(board, clock: clock, frame: .xArbitraryCorrectedZVertical, seconds: 30)
        var worst = 0.0, sumOfSquares = 0.0, count = 0.0
        for m in motions where m.timestamp > 2 {
            let truth = board.scenario.deviceTruth(at: m.timestamp - board.scenarioStart, earthField: board.earthField)
            let expected = truth.attitude.conjugate.rotate(Vector3(0, 0, -1))
            let error = acos(min(1, m.gravity.normalized.dot(expected))) * Self.degrees
            (worst, sumOfSquares, count) = (max(worst, error), sumOfSquares + error * error, count + 1)
        }
        let rms = (sumOfSquares / count).squareRoot()
        print("xArbitraryCorrectedZVertical, LSM9DS1, typical twin, nothing calibrated, the seeds' poses: gravity \(rms)° RMS, \(worst)° at worst")
        // Measured 2026-11-22: 9.0° at worst; 13.1° when the uncalibrated heading taught the bias.
        #expect(worst < 11, "gravity \(worst)° off at worst, \(rms)° RMS")
    }

    /// A stored gyro calibration (what `imu calibrate gyro` saves), found by the chip's identity,
    /// is applied before fusion: the bias is gone and the arbitrary frame holds still.
    @Test func aStoredGyroCalibrationIsAppliedAndStopsTheDrift() async throws {
        let bias = try await measuredBias(.mpu6050)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-kit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ParkingClock(limit: Self.seconds)
        let board = typicalTwin(.mpu6050, clock: clock)
        let identity = try MotionManager(board: board, calibration: .none).chipIdentity
        #expect(identity == ChipIdentity(chip: "MPU-6050", board: "sim", bus: "sim", address: 0x68))
        let file = CalibrationFile(chip: identity, gyroscope: .init(GyroBiasCalibration(biasRadiansPerSecond: bias), calibratedAt: Date()))
        try CalibrationStore.save(file, in: directory)

        let motions = try await recordDeviceMotion(
            board, clock: clock, frame: .xArbitraryZVertical, seconds: Self.seconds, calibration: .searching([directory]))
        let measured = drift(motions, from: 30, to: Self.seconds, board: board)
        print("xArbitraryZVertical, MPU-6050, typical twin, stored gyro calibration: drift \(measured) °/min")
        #expect(abs(measured) <= 1, "drift \(measured) °/min")
    }

    @Test func aDamagedStoredCalibrationIsAClearError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-kit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let board = VirtualBoard(chip: .mpu6050, clock: VirtualClock())
        let identity = ChipIdentity(chip: "MPU-6050", board: "sim", bus: "sim", address: 0x68)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = CalibrationDirectory.path(for: identity, in: directory)
        try "version = 1\n[gyroscope\n".write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try MotionManager(board: board, calibration: .searching([directory]))
            Issue.record("a damaged file was accepted")
        } catch {
            guard case .calibration(let message) = error else { return #expect(Bool(false), "\(error)") }
            #expect(message.contains(path) && message.contains("imu calibrate reset"), "\(message)")
        }
        // Another chip's calibration is refused too.
        let other = CalibrationFile(chip: ChipIdentity(chip: "LSM9DS1", board: "sim", bus: "sim", address: 0x6A))
        #expect(throws: MotionManagerError.self) { try MotionManager(board: board, calibration: .file(other)) }
    }
}
