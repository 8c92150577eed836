import Foundation
import Logging
import Testing
@testable import IMUCommands
import IMUDevices
import IMUDaemon
import IMUEngine
import IMUFormats

/// `imu run`'s actions end to end on the twin: heading rules, what reaches the journal, and
/// commands stopped with the daemon.
@Suite struct RunActionsTests {
    func rulesFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-rules-\(UUID()).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `on = "heading"` fires under `imu run` exactly when `imu events` reports a heading event
    /// with the same filter (the spin scenario turns 90 °/s; the filter is 30°).
    @Test func headingRulesFireLikeImuEventsReportsThem() async throws {
        let rules = try rulesFile("""
            heading-filter-deg = 30

            [[rule]]
            name = "turned"
            on = "heading"
              [[rule.action]]
              gpio-pin = 11
              set = "toggle"
            """)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let run = try await imu("run", "--config", rules, "--sim", "spin", "--virtual-time", "--duration", "4")
        try #require(run.succeeded, "\(run)")
        let events = try await imu("events", "--sim", "spin", "--virtual-time", "--duration", "4", "--heading-filter", "30", "--format", "jsonl")
        try #require(events.succeeded, "\(events)")
        let fired = run.stderr.split(separator: "\n").filter { $0.contains("rule fired") && $0.contains("rule=turned") }
        let headings = events.lines.filter { $0.contains("\"heading\"") }
        // After the fusion's 1 s warm-up the heading turns at least 150° in the remaining 3 s
        // (the magnetometer-corrected heading catches up with the 90 °/s turn over ~5 s).
        #expect(headings.count >= 5, "\(events.stdout)")
        #expect(fired.count == headings.count, "\(run.stderr)")
        #expect(fired.allSatisfy { $0.contains("\"type\":\"heading\"") })
    }

    /// A rule name with a newline (and a priority prefix after it) stays on its own line: every
    /// line of the daemon's log starts with a priority and none is the forged one.
    @Test func textFromTheRulesCannotForgeAJournalLine() async throws {
        let rules = try rulesFile("""
            [[rule]]
            name = "innocent\\n<0>forged emergency"
            on = "shake"
            phase = "began"
              [[rule.action]]
              command = ["/bin/printf", "out\\u001b[2J\\r<1>also forged\\n"]
              timeout-ms = 5000
            """)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        // Under systemd (standard error is the journal): every line starts with its priority.
        let result = try await imu("run", "--config", rules, "--sim", "shake", "--duration", "3", journal: true)
        try #require(result.succeeded, "\(result)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.range(of: "^<[0-7]>", options: .regularExpression) != nil }, "\(result.stderr)")
        #expect(!lines.contains { $0.hasPrefix("<0>") || $0.hasPrefix("<1>") })
        #expect(result.stderr.contains("rule=innocent\\n<0>forged emergency"), "\(result.stderr)")
        #expect(result.stderr.contains("command output: out\\x1b[2J\\r<1>also forged"), "\(result.stderr)")
    }

    /// SIGTERM while a command (and a child it started) runs: both are stopped and reaped before
    /// the daemon exits, and the stop is counted.
    @Test func stoppingTheDaemonStopsItsCommandsGroups() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("imu-cmd-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let rules = try rulesFile("""
            [[rule]]
            name = "long"
            on = "shake"
            phase = "began"
            max-running-commands = 1  # one, however many shakes a loaded machine lets pass
              [[rule.action]]
              command = ["/bin/sh", "-c", "sleep 300 & echo $$ > \(marker); wait"]
              timeout-ms = 600000
            """)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let process = try IMUProcess(["run", "--config", rules, "--sim", "shake"])
        let pgid = try #require(try await Self.groupWritten(to: marker), "the command did not start within 20 s")
        #expect(kill(-pgid, 0) == 0)
        process.send(SIGTERM)
        let result = try await process.finish(within: 15)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("command stopped") && result.stderr.contains("pid=\(pgid)"), "\(result.stderr)")
        #expect(result.stderr.contains("started=1 finished=0 timed_out=0 stopped=1"), "\(result.stderr)")
        #expect(kill(-pgid, 0) == -1 && errno == ESRCH, "members of the command's group outlived the daemon")
    }

    /// SIGHUP: the old rules' running commands are stopped and reaped when the new rules load.
    @Test func aReloadStopsTheOldRulesCommands() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("imu-cmd-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let rules = try rulesFile("""
            [[rule]]
            name = "long"
            on = "shake"
            phase = "began"
              [[rule.action]]
              command = ["/bin/sh", "-c", "sleep 300 & echo $$ > \(marker); wait"]
              timeout-ms = 600000
            """)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let process = try IMUProcess(["run", "--config", rules, "--sim", "shake"])
        let pgid = try #require(try await Self.groupWritten(to: marker), "the command did not start within 20 s")
        process.send(SIGHUP)
        var gone = false
        for _ in 0..<200 where !gone {
            gone = kill(-pgid, 0) == -1 && errno == ESRCH
            if !gone { try await Task.sleep(for: .milliseconds(50)) }
        }
        process.send(SIGTERM)
        let result = try await process.finish(within: 15)
        #expect(gone, "the command's group outlived the reload: \(result.stderr)")
        #expect(result.stderr.contains("command stopped") && result.stderr.contains("rules reloaded"), "\(result.stderr)")
    }

    /// The process group id a test command wrote to `path` (waits up to 20 s for it).
    static func groupWritten(to path: String) async throws -> Int32? {
        for _ in 0..<400 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n"),
               let pgid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pgid
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Acquisition trouble (a bus outage) goes to the journal at warning priority.
    @Test func busTroubleIsAWarning() {
        let recorder = RecordedLines()
        let log = Logger(label: "test") { _ in recorder }
        Daemon.log(.trouble("I²C bus /dev/i2c-1: remote I/O error; retrying every 50 ms"), to: log)
        #expect(recorder.levels == [.warning])
        #expect(JournalLogHandler.line(level: .warning, message: "outage", metadata: [:]) == "<4>outage\n")
    }

    /// Priorities only for the journal: on a terminal or a pipe, words for what needs attention.
    @Test func plainTextWhenStandardErrorIsNotTheJournal() async throws {
        #expect(JournalLogHandler.line(level: .warning, message: "outage", metadata: [:], journal: false) == "warning: outage\n")
        #expect(JournalLogHandler.line(level: .error, message: "bad", metadata: [:], journal: false) == "error: bad\n")
        #expect(JournalLogHandler.line(level: .info, message: "started", metadata: ["rate_hz": "100"], journal: false) == "started rate_hz=100\n")
        #expect(!JournalLogHandler.isJournal(nil, descriptor: STDERR_FILENO))
        #expect(!JournalLogHandler.isJournal("1:2", descriptor: STDERR_FILENO))
        let plain = try await imu("run", "--config", "/dev/null/none.toml", "--sim", "--virtual-time", "--duration", "1")
        #expect(!plain.succeeded && plain.stderr.hasPrefix("error: "), "\(plain)")
        let journal = try await imu("run", "--config", "/dev/null/none.toml", "--sim", "--virtual-time", "--duration", "1", journal: true)
        #expect(!journal.succeeded && journal.stderr.hasPrefix("<3>"), "\(journal)")
    }

    @Test func escapingKeepsEveryTextOnOneLine() {
        #expect(JournalLogHandler.escaped("plain ünïcode") == "plain ünïcode")
        #expect(JournalLogHandler.escaped("a\nb\rc\td\\e\u{0}\u{1b}\u{7f}\u{85}\u{2028}") == "a\\nb\\rc\\td\\\\e\\x00\\x1b\\x7f\\u{85}\\u{2028}")
        let line = JournalLogHandler.line(level: .info, message: "rule fired", metadata: ["rule": "x\n<0>y"])
        #expect(line == "<6>rule fired rule=x\\n<0>y\n")
    }
}

/// A LogHandler that keeps the levels it was given.
final class RecordedLines: LogHandler, @unchecked Sendable {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    private(set) var levels: [Logger.Level] = []
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) { levels.append(event.level) }
}
