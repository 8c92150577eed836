import Foundation
import IMULog
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu record`: a log imu replay reads, whatever happens to the recorder.
@Suite struct RecordTests {
    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("imu-record-\(UUID()).csv").path
    }

    @Test func aRecordingHasItsMetadataAndEverySample() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await imu(
            "record", "--sim", "figure-eight", "--board", "gy-521", "--rate", "50", "--duration", "2",
            "--output", path, "--virtual-time")
        try #require(result.succeeded, "\(result)")
        let log = try ReplayLog.read(path: path)
        #expect(log.report.skippedTotal == 0, "\(log.report)")
        #expect(abs(log.samples.count - 100) <= 1)
        #expect(log.metadata.chip == "MPU-6050" && log.metadata.board == "gy-521")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("# ranges: accel ±4 g, gyro ±500 °/s"))
        #expect(text.contains("# calibration: none"))
    }

    /// Killed outright (as a power cut would stop it), the file still reads: at most the line the
    /// kill interrupted is lost, and what was synced a second before is all there.
    @Test func aKilledRecordingStaysReadable() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try IMUProcess(["record", "--sim", "shake", "--rate", "200", "--output", path])
        var size = 0
        // However loaded the machine (the BROAD tests run beside this one), wait for the data.
        for _ in 0..<3600 {
            try await Task.sleep(for: .milliseconds(25))
            size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            if size > 20_000 { break }  // well over a second of samples synced
        }
        process.send(SIGKILL)
        _ = try await process.finish(within: 5)
        #expect(size > 20_000, "the recorder wrote only \(size) bytes")
        let log = try ReplayLog.read(path: path)
        #expect(log.samples.count > 150)
        #expect(log.report.skippedTotal <= 1, "\(log.report)")
    }
}
