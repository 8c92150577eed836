import Foundation
import IMUBoards
import IMUBus
import IMUDaemon
import IMUDevices
import IMUTwin
import Logging
import Testing

/// A computer without a GPIO header imu can drive (a laptop whose IMU the kernel reads through
/// IIO, a board no profile names): the daemon runs on, command actions fire, and a rule that
/// drives a line is refused at load naming its file, line and why.
@Suite struct DaemonWithoutHeaderTests {
    static let reason = "cannot tell which computer this is"

    func rulesFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-no-header-\(UUID()).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func daemon(rules: String, duration: Double, journal: DaemonTests.Journal) throws -> Daemon {
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("shake")!, errors: .typical)
        var settings = Daemon.Settings(rulesFile: rules)
        settings.duration = duration
        settings.calibrationSearchPath = []
        return try Daemon(settings: settings, device: device, gpio: .absent(reason: Self.reason), log: Logger(label: "test") { _ in journal })
    }

    @Test func aGPIORuleIsRefusedWithItsLineAndTheReason() throws {
        let rules = try rulesFile(DaemonTests.toggleOnShake)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let error = #expect(throws: (any Error).self) { try daemon(rules: rules, duration: 1, journal: DaemonTests.Journal()) }
        let words = "\(error.map { "\($0)" } ?? "")"
        #expect(words.contains("\(rules):1: rule \"relay on shake\" drives a GPIO line"), "\(words)")
        #expect(words.contains(Self.reason), "\(words)")
    }

    @Test func commandRulesRunWithoutAHeader() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("imu-no-header-\(UUID()).fired").path
        let rules = try rulesFile("""
            [[rule]]
            name = "note the shake"
            on = "shake"
            phase = "began"
              [[rule.action]]
              command = ["/bin/sh", "-c", "echo shake >> \(marker)"]
            """)
        defer {
            try? FileManager.default.removeItem(atPath: rules)
            try? FileManager.default.removeItem(atPath: marker)
        }
        let journal = DaemonTests.Journal()
        try daemon(rules: rules, duration: 8, journal: journal).run()
        let texts = journal.all.map(\.1)
        #expect(texts.filter { $0 == "rule fired" }.count >= 1, "\(texts)")
        #expect(texts.first == "started" && texts.last == "stopped", "\(texts)")
    }
}
