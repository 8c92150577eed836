import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

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
        #expect(result.stderr.hasPrefix("started") && result.stderr.contains("stopped"))
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
        // Issue #12: the time toml++ aborted on killed the daemon at a reload.
        try "[[rule]]\nsince = 2026-11-22T:3808:49Z\n".write(toFile: rules, atomically: true, encoding: .utf8)
        process.send(SIGHUP)
        try await Task.sleep(for: .milliseconds(500))
        try (toggleOnShake + "\n[[rule]]\nname = \"second\"\non = \"slap\"\n  [[rule.action]]\n  gpio-pin = 13\n  set = \"high\"\n")
            .write(toFile: rules, atomically: true, encoding: .utf8)
        process.send(SIGHUP)
        try await Task.sleep(for: .milliseconds(500))
        process.send(SIGTERM)
        let result = try await process.finish(within: 5)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("error: rules not reloaded, keeping the old ones") && result.stderr.contains("\(rules):3:"))
        #expect(result.stderr.contains("\(rules):2:9: TOML syntax error"), "\(result.stderr)")
        #expect(result.stderr.contains("rules reloaded rules=2"))
        #expect(result.stderr.contains("stopped"))
    }

    /// Pulses end on a real-time thread when RLIMIT_RTPRIO allows it (the service unit's
    /// `LimitRTPRIO=10`), and on an ordinary one, with one warning that says why, when it does
    /// not. CAP_SYS_NICE is taken away (setpriv) when the tests run as root, so root is refused
    /// like the unprivileged `imu` user.
    @Test func pulsesAskForRealTimeAndSayOnceWhenRefused() async throws {
        let rules = try rulesFile("""
            [[rule]]
            name = "beep"
            on = "shake"
              [[rule.action]]
              gpio-pin = 11
              set = "pulse"
              pulse-ms = 50
            """)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let root = getuid() == 0
        let dropNice = root ? ["/usr/bin/setpriv", "--inh-caps=-sys_nice", "--bounding-set=-sys_nice"] : []
        // Refused: RLIMIT_RTPRIO 0, no CAP_SYS_NICE. Granted: RLIMIT_RTPRIO 10 when this
        // machine lets the limit be raised (CAP_SYS_RESOURCE, or a hard limit of 10 already),
        // else CAP_SYS_NICE when root.
        var runs: [(wrapper: [String], granted: Bool)] = [(["/usr/bin/prlimit", "--rtprio=0"] + dropNice, false)]
        if Self.succeeds(["/usr/bin/prlimit", "--rtprio=10", "/bin/true"]) {
            runs.append((["/usr/bin/prlimit", "--rtprio=10"] + dropNice, true))
        } else if root {
            runs.append((["/usr/bin/prlimit", "--rtprio=0"], true))
        }
        for (wrapper, granted) in runs {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: wrapper[0])
            process.arguments = Array(wrapper.dropFirst()) + [
                try IMUExecutable.url().path, "run", "--config", rules, "--sim", "shake", "--virtual-time", "--duration", "3",
            ]
            let stderr = Pipe()
            process.standardError = stderr
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let output = String(decoding: readToEndOfFile(stderr.fileHandleForReading), as: UTF8.self)
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "\(wrapper): \(output)")
            let told = output.split(separator: "\n").filter { $0.contains("pulses end on") }
            if !granted {
                #expect(told.count == 1 && told[0].hasPrefix("warning: pulses end on an ordinary thread")
                    && told[0].contains("RLIMIT_RTPRIO is 0") && told[0].contains("LimitRTPRIO=10"), "\(output)")
            } else {
                #expect(told == ["pulses end on a real-time thread (SCHED_FIFO, priority 10)"], "\(output)")
            }
            #expect(output.contains("rule fired"), "\(output)")
        }
    }

    static func succeeds(_ command: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
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
