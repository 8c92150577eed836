import Foundation
import IMUBoards
import IMUDaemon
import IMUDevices
import IMUFrontEnd
import IMUTwin
import Logging
import Synchronization
import Testing

/// The daemon and its front ends through the one layer (issue 25): each started with the same
/// context (the engine's feed, the rules' news), stopped last first; a front end that is not
/// required and cannot start is a warning, a required one refuses the start and the ones
/// already started are stopped again.
@Suite struct DaemonFrontEndTests {
    /// A front end that keeps what the daemon gave it and when it was started and stopped.
    final class Recorder: FrontEnd, @unchecked Sendable {
        let name: String
        let isRequired: Bool
        let fails: Bool
        let calls: Calls
        private let lock = NSLock()
        private var heard: [DaemonHappening] = []
        private var chipSeen: String?
        private var fieldSeen: Double?
        var happenings: [DaemonHappening] { lock.withLock { heard } }
        var chip: String? { lock.withLock { chipSeen } }
        var expectedField: Double? { lock.withLock { fieldSeen } }
        private var news: DaemonNews?
        private var key: Int?

        init(_ name: String, required: Bool = false, fails: Bool = false, calls: Calls) {
            self.name = name
            self.isRequired = required
            self.fails = fails
            self.calls = calls
        }

        func start(_ context: FrontEndContext) throws {
            calls.add("start \(name)")
            if fails { throw FrontEndError("\(name) cannot start") }
            let chip = context.feed.info.chip
            lock.withLock { (chipSeen, fieldSeen) = (chip, context.calibration.expectedFieldMicrotesla) }
            news = context.news
            key = context.news.observe { [self] happening in lock.withLock { heard.append(happening) } }
        }

        func stop() {
            calls.add("stop \(name)")
            if let key { news?.remove(key) }
        }
    }

    /// The order the daemon started and stopped the front ends in.
    final class Calls: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ call: String) { entries.withLock { $0.append(call) } }
        var all: [String] { entries.withLock { $0 } }
    }

    func daemon(rules text: String, journal: DaemonTests.Journal) throws -> (Daemon, String) {
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("imu-front-ends-\(UUID()).toml").path
        try text.write(toFile: rules, atomically: true, encoding: .utf8)
        let device = try SimulatedHardware.open(
            profile: BoardCatalog.standard().profile(named: "sim"), scenario: MotionScenarios.named("shake")!, errors: .typical)
        var settings = Daemon.Settings(rulesFile: rules)
        settings.duration = 6
        settings.calibrationSearchPath = []
        settings.expectedFieldMicrotesla = 49.6  // as `imu run --location` gives it
        let daemon = try Daemon(settings: settings, device: device, gpio: try device.headerGPIO(), log: Logger(label: "test") { _ in journal })
        return (daemon, rules)
    }

    @Test func everyFrontEndGetsTheContextAndTheyStopLastFirst() throws {
        let journal = DaemonTests.Journal()
        let (daemon, rules) = try daemon(rules: DaemonTests.toggleOnShake, journal: journal)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let calls = Calls()
        let broken = Recorder("broken", fails: true, calls: calls)
        let first = Recorder("first", calls: calls), second = Recorder("second", calls: calls)
        daemon.frontEnds = [broken, first, second]
        try daemon.run()

        #expect(calls.all == ["start broken", "start first", "start second", "stop second", "stop first"])
        #expect(journal.all.contains { $0.0 == .warning && $0.1 == "broken cannot start" })
        for recorder in [first, second] {
            #expect(recorder.chip == "LSM9DS1")
            #expect(recorder.expectedField == 49.6)
            let heard = recorder.happenings
            // The rules in force first (told before the front ends started, replayed to each).
            guard case let .rules(summaries, lines)? = heard.first else {
                Issue.record("no rules first: \(heard)")
                continue
            }
            #expect(summaries == [RuleSummary(name: "relay on shake", on: "shake began", actions: "toggle pin 11")])
            #expect(lines == [GPIOLevel(name: "GPIO17", offset: 17, high: false)])
            let fired = heard.compactMap { if case let .ruleFired(rule, _, _, lines) = $0 { (rule, lines) } else { nil } }
            // Each shake's start toggles the line: the levels alternate, high first.
            #expect(fired.count >= 2, "\(heard)")
            #expect(fired.allSatisfy { $0.0 == "relay on shake" })
            #expect(fired.enumerated().allSatisfy { index, firing in firing.1 == [GPIOLevel(name: "GPIO17", offset: 17, high: index % 2 == 0)] })
        }
    }

    @Test func aRequiredFrontEndThatCannotStartRefusesTheStart() throws {
        let journal = DaemonTests.Journal()
        let (daemon, rules) = try daemon(rules: DaemonTests.toggleOnShake, journal: journal)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let calls = Calls()
        daemon.frontEnds = [Recorder("socket", calls: calls), Recorder("MQTT", required: true, fails: true, calls: calls), Recorder("late", calls: calls)]
        #expect(throws: DaemonError.self) { try daemon.run() }
        #expect(calls.all == ["start socket", "start MQTT", "stop socket"])
        #expect(journal.all.last?.1 == "stopped")
    }
}
