import Foundation
import Testing

/// A daemon whose standard error goes away (journald restarted under the service, `imu run 2>&1
/// | head`) runs on: its log lines are lost, nothing else. It used to stop at the next log line
/// (FileHandle.write trapped on EPIPE: status 132), leaving its socket file behind.
@Suite struct BrokenStandardErrorTests {
    @Test func theDaemonOutlivesItsStandardError() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imu-broken-stderr-\(UUID())").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let socket = work + "/imu.sock", status = work + "/status"
        // `head -c 1` reads the first byte of the log and exits: every later line meets EPIPE.
        let imu = try IMUExecutable.url().path
        let script = "('\(imu)' run --sim walk --socket '\(socket)' --duration 2; echo $? > '\(status)') 2>&1 | head -c 1 > /dev/null"
        let outcome = try await runToEnd("/bin/sh", ["-c", script])
        #expect(outcome.status == 0, "\(outcome)")
        let code = try String(contentsOfFile: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "0", "imu run ended with status \(code)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket file was left behind")
    }
}
