import Foundation
import IMUBoards
import IMUBus
import IMUDevices
import IMUEngine
import IMUTwin
import Logging
import Synchronization
import Testing
@testable import IMUDaemon

/// Reloads read and check the rules off the acquisition thread: a FIFO in the rules file's place
/// used to wedge the daemon (no samples, no rules, no stop) until something wrote to it.
@Suite struct DaemonReloadTests {
    final class Journal: LogHandler, @unchecked Sendable {
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        private let lines = Mutex<[(level: Logger.Level, text: String, metadata: Logger.Metadata)]>([])
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.withLock { $0.append((event.level, "\(event.message)", event.metadata ?? [:])) } }
        var all: [(level: Logger.Level, text: String, metadata: Logger.Metadata)] { lines.withLock { $0 } }
    }

    static func toggleRules(_ count: Int) -> String {
        (0..<count).map { "[[rule]]\nname = \"toggle \($0)\"\non = \"shake\"\nphase = \"began\"\n[[rule.action]]\ngpio-pin = 11\nset = \"toggle\"\n" }
            .joined()
    }

    func temporaryRules(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-reload-\(UUID()).toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `daemon` on a thread; true when it ended within `seconds` (wall time). Otherwise
    /// `release` is called (to unblock what wedged it) and the run is waited for again.
    func run(_ daemon: Daemon, within seconds: Double, release: () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let daemon = daemon
        Thread {
            try? daemon.run()
            done.signal()
        }.start()
        if done.wait(timeout: .now() + seconds) == .success { return true }
        release()
        daemon.requestStop()
        _ = done.wait(timeout: .now() + 60)
        return false
    }

    @Test func aFIFOInTheRulesFilesPlaceIsRefusedAndTheOldRulesKeepFiring() throws {
        let rules = try temporaryRules(Self.toggleRules(1))
        defer { unlink(rules) }
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("shake")!, errors: .typical)
        let twin = try #require(device.twin)
        let gpio = try device.headerGPIO()
        let journal = Journal()
        var settings = Daemon.Settings(rulesFile: rules)
        settings.duration = 16
        settings.calibrationSearchPath = []
        let daemon = try Daemon(settings: settings, device: device, gpio: gpio, log: Logger(label: "test") { _ in journal })
        var replaced = false
        daemon.takeReloadRequest = {
            guard !replaced, device.clock.now >= 8 else { return false }
            replaced = true
            unlink(rules)
            _ = mkfifo(rules, 0o600)
            return true
        }
        let ended = run(daemon, within: 120) {
            // What the old daemon waited for: a writer on the FIFO.
            let writer = open(rules, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        #expect(ended, "the daemon wedged on the FIFO")
        let refusal = try #require(journal.all.first { $0.text.hasPrefix("rules not reloaded, keeping the old ones") })
        #expect(refusal.level == .error)
        #expect(refusal.text.hasSuffix("\(rules): the rules file must be a regular file; this path is a FIFO (named pipe), not read"), "\(refusal.text)")
        let line = try #require(gpio.headerPins[11])
        let changes = twin.gpio.history(ofOutput: line).dropFirst()
        #expect(changes.filter { $0.time >= 8 }.count >= 2, "\(Array(changes))")
        #expect(journal.all.last?.text == "stopped")
    }

    /// 300 rules fire on every shake; the journal gets at most ten "rule fired" lines a second
    /// and counts the rest, and the lines and counts add up to every firing.
    @Test func ruleFiredLinesAreLimitedAndTheRestCounted() throws {
        let count = 300
        let rules = try temporaryRules(Self.toggleRules(count))
        defer { unlink(rules) }
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("shake")!, errors: .typical)
        let twin = try #require(device.twin)
        let gpio = try device.headerGPIO()
        let journal = Journal()
        var settings = Daemon.Settings(rulesFile: rules)
        settings.duration = 8
        settings.calibrationSearchPath = []
        let daemon = try Daemon(settings: settings, device: device, gpio: gpio, log: Logger(label: "test") { _ in journal })
        try daemon.run()
        let line = try #require(gpio.headerPins[11])
        // Each firing toggles the line: the changes of level are the firings (the stop's
        // return to rest sets the level it already has).
        let levels = twin.gpio.history(ofOutput: line).map(\.high)
        let firings = zip(levels, levels.dropFirst()).filter { $0 != $1 }.count
        #expect(firings >= 2 * count, "\(firings)")
        let fired = journal.all.filter { $0.text == "rule fired" }.count
        let counted = journal.all.filter { $0.text == "rules fired without a line each" }
            .compactMap { $0.metadata["count"].flatMap { Int("\($0)") } }.reduce(0, +)
        #expect(fired + counted == firings, "\(fired) lines + \(counted) counted, \(firings) firings")
        #expect(fired < firings / 10, "\(fired) lines for \(firings) firings")
    }

    /// A reload to 5 000 rules: motion goes on while they are read and checked (it stopped for
    /// the whole load, 7.5 s, when the acquisition thread did it), and they are in force after.
    @Test func aReloadToFiveThousandRulesDoesNotStopMotion() throws {
        let rules = try temporaryRules(Self.toggleRules(1))
        defer { unlink(rules) }
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("still")!, errors: .typical)
        let journal = Journal()
        var settings = Daemon.Settings(rulesFile: rules)
        settings.duration = 1_000_000
        settings.calibrationSearchPath = []
        let daemon = try Daemon(settings: settings, device: device, gpio: try device.headerGPIO(), log: Logger(label: "test") { _ in journal })
        let motionTimes = Mutex<[ContinuousClock.Instant]>([])
        _ = daemon.engine.observe([.motion]) { _ in motionTimes.withLock { $0.append(.now) } }
        let text = Self.toggleRules(5_000)
        var askedAt: ContinuousClock.Instant?
        daemon.takeReloadRequest = {
            guard askedAt == nil, device.clock.now >= 2 else { return false }
            try? text.write(toFile: rules, atomically: true, encoding: .utf8)
            askedAt = .now
            return true
        }
        let started = ContinuousClock.now
        var reloadedAt: ContinuousClock.Instant?
        daemon.shouldStop = {
            if reloadedAt == nil, journal.all.contains(where: { $0.text == "rules reloaded" || $0.text.hasPrefix("rules not reloaded") }) {
                reloadedAt = .now
            }
            return (reloadedAt.map { .now - $0 > .milliseconds(300) } ?? false) || .now - started > .seconds(300)
        }
        try daemon.run()
        let reloaded = try #require(journal.all.first { $0.text == "rules reloaded" }, "\(journal.all.map(\.text))")
        #expect(reloaded.metadata["rules"] == "5000")
        let took = try #require(reloaded.metadata["took_s"].flatMap { Double("\($0)") })
        let (asked, done) = (try #require(askedAt), try #require(reloadedAt))
        let during = motionTimes.withLock { times in times.filter { $0 >= asked && $0 <= done } }
        let gaps = zip(during, during.dropFirst()).map { $1 - $0 }
        let longest = gaps.max() ?? (done - asked)
        let seconds = Double(longest.components.seconds) + Double(longest.components.attoseconds) * 1e-18
        #expect(during.count > 10 && seconds < took / 2, "longest pause in motion \(seconds) s while the load took \(took) s (\(during.count) motions)")
    }

    /// The reloader on its own, with a load that blocks until released and a clock the test
    /// moves: the acquisition thread never waits; a load past its deadline is given up, and a
    /// new one refused while it is stuck, then allowed once it returns.
    @Test func aLoadThatHangsIsAbandonedAtItsDeadlineAndBlocksNoOne() throws {
        let clock = Mutex(0.0)
        let gate = DispatchSemaphore(value: 0)
        let loads = Mutex(0)
        let reloader = RulesReloader(deadline: 10, now: { clock.withLock { $0 } }) {
            let n = loads.withLock { $0 += 1; return $0 }
            if n == 1 { gate.wait() }
            return .refused("load \(n)")
        }
        reloader.request(askerWaits: true)
        #expect(reloader.poll().isEmpty && reloader.isLoading)
        clock.withLock { $0 = 10.5 }
        let reports = reloader.poll()
        guard case .abandoned(let seconds, let broker)? = reports.first, reports.count == 1 else {
            Issue.record("\(reports)")
            return
        }
        #expect(seconds == 10.5 && broker)
        reloader.request(askerWaits: false)
        guard case .refusedWhileStuck(false)? = reloader.poll().first else {
            Issue.record("a second load started while the first was stuck")
            return
        }
        gate.signal()
        // The stuck load returns (its outcome dropped); the next request runs.
        var finished: [RulesReloader.Report] = []
        for _ in 0..<5000 where finished.isEmpty {
            usleep(2_000)
            reloader.request(askerWaits: false)
            finished = reloader.poll().filter { if case .finished = $0 { true } else { false } }
        }
        guard case .finished(.refused(let reason), _, false)? = finished.first else {
            Issue.record("\(finished)")
            return
        }
        #expect(reason == "load 2")
    }
}
