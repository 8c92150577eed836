import Foundation
import IMUBoards
import IMUDaemon
import IMUConfigFile
import IMUDevices
import IMUTwin
import IMUWeb
import Logging
import Testing

/// Whoever reads the journal (or a service's stderr) must not get the dashboard's token: the
/// daemon says where the token is and which command shows it, never the token or a sign-in code.
@Suite struct DaemonTokenTests {
    /// A port nothing listens on now (the kernel's pick, released).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                _ = bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func theFirstStartLogsNeitherTheTokenNorASignInCode() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imu-daemon-token-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let rules = work + "/rules.toml"
        try ("[http]\nallow-control = true\n\n" + DaemonTests.toggleOnShake).write(toFile: rules, atomically: true, encoding: .utf8)
        for start in 1...2 {
            let device = try SimulatedHardware.open(
                profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("shake")!, errors: .typical)
            let journal = DaemonTests.Journal()
            var settings = Daemon.Settings(rulesFile: rules)
            settings.duration = 0.5
            settings.calibrationSearchPath = []
            let daemon = try Daemon(settings: settings, device: device, gpio: try device.headerGPIO(), log: Logger(label: "test") { _ in journal })
            let http = try #require(try HTTPSettings.resolve(rulesFile: try .read(rules), listen: "127.0.0.1:\(Self.freePort())"))
            daemon.frontEnds = [DashboardFrontEnd(settings: http, stateDirectory: work + "/state")]
            try daemon.run()
            let token = try String(contentsOfFile: work + "/state/http-token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token.count == 64)
            let lines = journal.all.map(\.1)
            #expect(!lines.contains { $0.contains(token) || $0.contains("code=") }, "start \(start): \(lines)")
            #expect(lines.contains { $0.contains(work + "/state/http-token") && $0.contains("imu token") }, "start \(start)")
        }
    }
}
