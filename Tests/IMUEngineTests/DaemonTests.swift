import Foundation
import IMUBoards
import IMUBus
import IMUDaemon
import IMUDevices
import IMUEngine
import IMUTwin
import Logging
import Synchronization
import Testing

/// The daemon in process, as `imu run` starts it but without the binary: a rules file, the twin
/// shaking, a GPIO line toggled on each shake, a SIGHUP-style reload with a damaged file (the old
/// rules stay and keep firing), a clean stop (the line back low, commands stopped, "stopped" said).
@Suite struct DaemonTests {
    final class Journal: LogHandler, @unchecked Sendable {
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        private let lines = Mutex<[(Logger.Level, String)]>([])
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.withLock { $0.append((event.level, "\(event.message)")) } }
        var all: [(Logger.Level, String)] { lines.withLock { $0 } }
    }

    static let toggleOnShake = """
        [[rule]]
        name = "relay on shake"
        on = "shake"
        phase = "began"
          [[rule.action]]
          gpio-pin = 11
          set = "toggle"
        """

    @Test func rulesFireReloadRefusesADamagedFileAndStopCleans() throws {
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("imu-daemon-\(UUID()).toml").path
        defer { try? FileManager.default.removeItem(atPath: rules) }
        try Self.toggleOnShake.write(toFile: rules, atomically: true, encoding: .utf8)
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("shake")!, errors: .typical)
        let twin = try #require(device.twin)
        let gpio = try device.headerGPIO()
        let journal = Journal()
        var settings = Daemon.Settings(rulesFile: rules)
        settings.duration = 16
        settings.calibrationSearchPath = []
        let daemon = try Daemon(settings: settings, device: device, gpio: gpio, log: Logger(label: "test") { _ in journal })
        // At 8 s of the twin's time the file is damaged and a reload asked for (as SIGHUP does).
        var reloaded = false
        daemon.takeReloadRequest = {
            guard !reloaded, device.clock.now >= 8 else { return false }
            reloaded = true
            try? "[[rule]]\nsince = 2026-11-22T:3808:49Z\n".write(toFile: rules, atomically: true, encoding: .utf8)
            return true
        }
        try daemon.run()

        // Header pin 11 is GPIO17: toggled at each shake's start, before and after the reload.
        let line = try #require(gpio.headerPins[11])
        let changes = twin.gpio.history(ofOutput: line).dropFirst()
        let before = changes.filter { $0.time < 8 }.count, after = changes.filter { $0.time >= 8 }.count
        #expect(before >= 2 && after >= 2, "\(Array(changes))")
        // Stopped: the line is back at rest.
        #expect(changes.last?.high == false)
        let texts = journal.all.map(\.1)
        let refusal = try #require(journal.all.first { $0.1.hasPrefix("rules not reloaded, keeping the old ones") })
        #expect(refusal.0 == .error)
        #expect(refusal.1.contains("\(rules):2"), "\(refusal.1)")
        #expect(texts.filter { $0 == "rule fired" }.count >= 4)
        #expect(texts.first == "started" && texts.last == "stopped", "\(texts)")
    }

    @Test func aBadRulesFileIsRefusedAtStartWithItsLine() throws {
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("imu-daemon-\(UUID()).toml").path
        defer { try? FileManager.default.removeItem(atPath: rules) }
        try "[[rule]]\nname = \"broken\"\non = \"sideways\"\n".write(toFile: rules, atomically: true, encoding: .utf8)
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: PoseScenario(.faceUp), errors: .perfect)
        #expect {
            _ = try Daemon(settings: .init(rulesFile: rules), device: device, gpio: try device.headerGPIO(), log: Logger(label: "test"))
        } throws: { error in
            "\(error)".contains("\(rules):3") && "\(error)".contains("sideways")
        }
    }
}
