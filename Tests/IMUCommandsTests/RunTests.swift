import Foundation
import Testing

/// `imu run` end to end on the twin: a rules file, events, GPIO lines, reloads and stopping.
@Suite struct RunTests {
    func rulesFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-rules-\(UUID()).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    let toggleOnShake = """
        [[rule]]
        name = "relay on shake"
        on = "shake"
          [[rule.action]]
          gpio-pin = 11
          set = "toggle"
        """

    @Test func shakesToggleTheTwinsGPIOLine() async throws {
        let rules = try rulesFile(toggleOnShake)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let result = try await imu("run", "--config", rules, "--sim", "shake", "--virtual-time", "--duration", "8")
        try #require(result.succeeded, "\(result)")
        // The shake scenario shakes for 2 s every 4 s: two shakes end in 8 s; pin 11 is GPIO17.
        let fired = result.stderr.split(separator: "\n").filter { $0.contains("rule fired") }
        #expect(fired.count == 2, "\(result.stderr)")
        #expect(fired.first?.contains("line17=high") == true && fired.last?.contains("line17=low") == true)
        #expect(result.stderr.hasPrefix("<6>started") && result.stderr.contains("<6>stopped"))
    }

    @Test func lowPowerFromTheRulesFileSleepsBetweenShakesAndStillToggles() async throws {
        let rules = try rulesFile("low-power = true\n\n" + toggleOnShake)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let result = try await imu("run", "--config", rules, "--sim", "shake", "--virtual-time", "--duration", "8")
        try #require(result.succeeded, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.contains("low_power=true") == true, "\(result.stderr)")
        #expect(lines.filter { $0.contains("rule fired") }.count == 2, "\(result.stderr)")
        // Idle after the first shake, woken by INT at the second (t = 4 s), idle after it.
        #expect(lines.filter { $0.contains("idle at") }.count == 2 && lines.filter { $0.contains("woken at") }.count == 1, "\(result.stderr)")
    }

    @Test func aBadRulesFileIsRefusedAtStartWithItsLine() async throws {
        let rules = try rulesFile(toggleOnShake.replacingOccurrences(of: "gpio-pin = 11", with: "gpio-pin = 2"))
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let result = try await imu("run", "--config", rules, "--sim", "--virtual-time", "--duration", "1")
        #expect(!result.succeeded)
        #expect(result.stderr.contains("\(rules):5:") && result.stderr.contains("header pin 2"))
    }

    @Test func sighupReloadsKeepingTheOldRulesWhenTheNewOnesAreBad() async throws {
        let rules = try rulesFile(toggleOnShake)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let process = try IMUProcess(["run", "--config", rules, "--sim", "--rate", "50"])
        try await Task.sleep(for: .milliseconds(1500))
        try "[[rule]]\nname = \"broken\"\non = \"sideways\"\n".write(toFile: rules, atomically: true, encoding: .utf8)
        process.send(SIGHUP)
        try await Task.sleep(for: .milliseconds(500))
        try (toggleOnShake + "\n[[rule]]\nname = \"second\"\non = \"slap\"\n  [[rule.action]]\n  gpio-pin = 13\n  set = \"high\"\n")
            .write(toFile: rules, atomically: true, encoding: .utf8)
        process.send(SIGHUP)
        try await Task.sleep(for: .milliseconds(500))
        process.send(SIGTERM)
        let result = try await process.finish(within: 5)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("<3>rules not reloaded, keeping the old ones") && result.stderr.contains("\(rules):3:"))
        #expect(result.stderr.contains("<5>rules reloaded rules=2"))
        #expect(result.stderr.contains("<6>stopped"))
    }
}

/// The example rules file the service installer puts in /etc/imu loads and runs as shipped.
@Suite struct ExampleRulesTests {
    @Test func theShippedExampleRunsOnTheTwin() async throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/rules.example.toml").path
        let result = try await imu("run", "--config", example, "--sim", "--virtual-time", "--duration", "2")
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("rules=3"))
    }
}
