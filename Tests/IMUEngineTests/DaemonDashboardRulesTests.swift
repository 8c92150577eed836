import Foundation
import IMUBoards
import IMUDaemon
import IMUDevices
import IMUTwin
import IMUWeb
import Logging
import Testing

/// The dashboard's "Rules and GPIO" panel lists the rules in force before any fires, and the
/// lines they drive at their levels (issue 26's rough edge; issue 25: the `gpio` line promised in
/// Docs/protocol.md was never sent). Read from a running daemon's `/api/status` on loopback.
@Suite struct DaemonDashboardRulesTests {
    /// `GET path` on 127.0.0.1:port; the body, or nil when nothing answers.
    static func get(_ path: String, port: Int) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return nil }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var response = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
        }
        let text = String(decoding: response, as: UTF8.self)
        return text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) }
    }

    @Test func theRulesInForceAndTheirLinesAreListedBeforeAnyFires() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("imu-dashboard-rules-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let rules = work + "/rules.toml"
        try (DaemonTests.toggleOnShake + "\n[[rule]]\nname = \"log slaps\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n")
            .write(toFile: rules, atomically: true, encoding: .utf8)
        // Still: no rule fires while the page is read.
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("still")!, errors: .typical)
        // No duration: the twin runs on virtual time (as fast as it can) until the page is read.
        var settings = Daemon.Settings(rulesFile: rules)
        settings.calibrationSearchPath = []
        let port = DaemonTokenTests.freePort()
        let daemon = try Daemon(settings: settings, device: device, gpio: try device.headerGPIO(), log: Logger(label: "test") { _ in DaemonTests.Journal() })
        daemon.frontEnds = [DashboardFrontEnd(settings: HTTPSettings(host: "127.0.0.1", port: port), stateDirectory: work + "/state")]
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? daemon.run()
            finished.signal()
        }
        var status: String?
        for _ in 0..<1500 where status == nil {
            status = Self.get("/api/status", port: port)
            if status == nil { usleep(20_000) }
        }
        daemon.requestStop()
        _ = finished.wait(timeout: .now() + 30)
        let body = try #require(status)
        #expect(body.contains(#""rules":[{"name":"relay on shake","on":"shake began","actions":"toggle pin 11"},{"name":"log slaps","on":"a slap","actions":"run /bin/true"}]"#), "\(body)")
        #expect(body.contains(#""gpio":[{"name":"GPIO17","offset":17,"high":false}]"#), "\(body)")
    }
}
