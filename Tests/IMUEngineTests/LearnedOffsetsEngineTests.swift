import Foundation
import IMUCalibration
import IMUDevices
import IMUDrivers
import IMUEngine
import IMUTwin
import Testing

/// The engine keeps what rests teach about the gyro's offset in its state directory: saved at
/// the end of a run, loaded by the next; a damaged file is said and learning starts afresh.
@Suite struct LearnedOffsetsEngineTests {
    func run(directory: String, seconds: Double = 30) throws -> (device: IMUDevice, notices: [String]) {
        let board = VirtualBoard(chip: .mpu6050, scenario: PoseScenario(.faceUp), errors: .typical, seed: 3, clock: VirtualClock())
        let device = try SimulatedHardware.device(of: board)
        let engine = MotionEngine(device: device, settings: .init(
            rateHz: 100, duration: seconds, calibration: SensorCalibration(file: nil), learnedGyroOffsetsDirectory: directory))
        var notices: [String] = []
        engine.onNotice = { notices.append($0.text) }
        engine.observe([.motion]) { _ in }
        try engine.run()
        return (device, notices)
    }

    @Test func savedAtTheEndAndLoadedByTheNextRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-learned-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try run(directory: directory)
        #expect(first.notices.isEmpty, "\(first.notices)")
        let saved = try #require(try LearnedGyroOffsetsStore.load(first.device.chipIdentity, from: directory))
        #expect(saved.model != nil || saved.offset(atCelsius: 25) != nil, "nothing learned in 30 s of rest")
        let second = try run(directory: directory)
        #expect(second.notices.isEmpty, "\(second.notices)")
    }

    @Test func aDamagedFileIsSaidAndLearningStartsAfresh() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-learned-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try run(directory: directory, seconds: 20)
        let path = LearnedGyroOffsetsStore.path(for: first.device.chipIdentity, in: directory)
        try "bins = [oops\n".write(toFile: path, atomically: true, encoding: .utf8)
        let second = try run(directory: directory, seconds: 20)
        #expect(second.notices.contains { $0.hasPrefix("the learned gyro offsets are unusable, learning afresh") && $0.contains(path) },
                "\(second.notices)")
        // Learned again and saved over the damaged file.
        #expect(try LearnedGyroOffsetsStore.load(first.device.chipIdentity, from: directory) != nil)
    }
}
