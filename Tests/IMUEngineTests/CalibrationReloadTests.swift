import Foundation
import IMUCalibration
import IMUDevices
import IMUEngine
import IMUGeometry
import IMUTwin
import Testing

/// A running engine reads its chip's calibration file again when asked (after `imu calibrate`
/// saved one through the daemon): a good file is in force from the next sample and health says
/// so; a damaged one is refused and the calibration in force stays; no file means none.
@Suite struct CalibrationReloadTests {
    @Test func aReloadAppliesTheFileAndADamagedOneKeepsTheCalibrationInForce() throws {
        let board = VirtualBoard(chip: .lsm9ds1, scenario: PoseScenario(.faceUp), errors: .typical, seed: 7, clock: VirtualClock())
        let device = try SimulatedHardware.device(of: board)
        let engine = MotionEngine(device: device, settings: .init(rateHz: 100, calibration: SensorCalibration(file: nil)))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = directory + "/empty"

        // A file in the second directory of the path is found, as at the start.
        let gyro = GyroBiasCalibration(biasRadiansPerSecond: Vector3(0.01, -0.02, 0.03), temperatureCelsius: 25)
        let file = CalibrationFile(chip: device.chipIdentity, gyroscope: .init(gyro, calibratedAt: Date()))
        let saved = try CalibrationStore.save(file, in: directory)
        let (path, calibration) = try engine.reloadCalibration(searching: [empty, directory])
        #expect(path == saved)
        #expect(calibration.file == file)
        #expect(engine.calibrationFile == file)
        #expect(engine.health.calibration == "gyroscope")

        // Damaged: refused, naming the file; the gyro calibration stays in force.
        try "version = 1\nparts = [\"gyroscope\"]\n[chip\n".write(toFile: saved, atomically: true, encoding: .utf8)
        #expect(throws: CalibrationFileError.self) { try engine.reloadCalibration(searching: [directory]) }
        do {
            _ = try engine.reloadCalibration(searching: [directory])
        } catch {
            #expect("\(error)".contains(saved), "\(error)")
        }
        #expect(engine.calibrationFile == file)
        #expect(engine.health.calibration == "gyroscope")

        // Removed (imu calibrate reset): uncalibrated.
        try FileManager.default.removeItem(atPath: saved)
        let (none, _) = try engine.reloadCalibration(searching: [directory])
        #expect(none == nil)
        #expect(engine.calibrationFile == nil)
        #expect(engine.health.calibration == "none")
        #expect(engine.health.magnetometerAccuracy == "uncalibrated")
    }
}
