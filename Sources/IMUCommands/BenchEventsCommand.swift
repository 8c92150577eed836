import Foundation
import ArgumentParser
import IMUBus
import IMUEvents
import IMUMQTT
import IMURules
import IMUTwin
import Logging
import IMUDevices
import IMUFrontEnd
import IMUEngine
import IMUFormats

/// `imu bench events`: the issue's event acceptance figures as markdown tables. The recogniser
/// timings come from the twin in virtual time (`EventTrials`, the figures the tests bound); the
/// action latency and pulse lengths from `imu run`'s own dispatch on the twin in real time, read
/// off the twin's GPIO timestamps.
struct BenchEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Event timing on the twin: shakes, orientation, slaps, action latency and pulse length.")

    @Option(parsing: .unconditional, help: "Seconds of real time for the action-latency run (the shake scenario).")
    var seconds: Double = 12

    @Option(parsing: .unconditional, help: "Pulse length of the rule the latency run fires (ms).")
    var pulse: Int = 50

    @Flag(help: "Only the action-latency run.")
    var actionsOnly = false

    @Option(help: "During the action-latency run, publish the events to this MQTT broker as `imu run --mqtt` does (mqtt://host:port).")
    var mqtt: String?

    func validate() throws {
        if let mqtt, case .failure(let problem) = MQTTSettings.parseURL(mqtt) {
            throw ValidationError("--mqtt \(problem.reason), not \"\(mqtt)\"")
        }
    }

    func run() throws {
        if actionsOnly { return try actions() }
        try shakes()
        try calm()
        try orientation()
        try slaps()
        try actions()
    }

    private func ms(_ seconds: Double) -> String { number(seconds * 1000, 0) }

    private func shakes() throws {
        print("### Shakes (upright, still, shaken from t = 2 s; delays from the onset and from the stop)\n")
        print("| board | shake | found | began after onset (ms, worst) | ended after stop (ms, worst) | slaps |")
        print("|---|---|---:|---:|---:|---:|")
        for board in EventTrials.boards {
            let groups = Dictionary(grouping: EventTrials.shakes) { "\(number($0.hertz, 1)) Hz ±\(number($0.peakG, 1)) g" }
            for key in groups.keys.sorted() {
                let outcomes = try groups[key]!.map { try EventTrials.run($0, board: board) }
                let delays = outcomes.compactMap(\.delays)
                let began = delays.map(\.began).max(), ended = delays.map(\.ended).max()
                let durations = Set(groups[key]!.map { number($0.seconds, 2) }).sorted().joined(separator: "/")
                print("| \(board) | \(key), \(durations) s, x and z | \(delays.count)/\(outcomes.count) | \(began.map(ms) ?? "–") | \(ended.map(ms) ?? "–") | \(outcomes.map(\.slaps).reduce(0, +)) |")
            }
            let long = EventTrials.ShakeMotion(hertz: 4, peakG: 2, atLeast: 6)
            let outcome = try EventTrials.run(long, board: board)
            let phases = outcome.shakes.map { event -> String in
                switch event {
                case .began(let t): "began +\(ms(t - long.onset)) ms"
                case .ended(let t): "ended at \(number(t - long.onset, 2)) s"
                case .cancelled(let t): "cancelled at \(number(t - long.onset, 2)) s"
                }
            }
            print("| \(board) | 4 Hz ±2 g, 6 s | \(phases.joined(separator: ", ")) | | | \(outcome.slaps) |")
        }
        print()
    }

    private func calm() throws {
        print("### Motions that are no shake and no slap (30 s each)\n")
        print("| scenario | " + EventTrials.boards.map { "\($0): shakes, slaps" }.joined(separator: " | ") + " |")
        print("|---|" + EventTrials.boards.map { _ in "---:|" }.joined())
        for name in EventTrials.calmScenarios {
            var cells: [String] = []
            for board in EventTrials.boards {
                let events = try EventTrials.events(MotionScenarios.named(name)!, seconds: 30, board: board)
                cells.append("\(events.filter { $0.type == "shake" }.count), \(events.filter { $0.type == "slap" }.count)")
            }
            print("| \(name) | " + cells.joined(separator: " | ") + " |")
        }
        print()
    }

    private func orientation() throws {
        print("### Orientation (the seeds' sequence: 1 s turns; delay from the end of the turn, negative: during it)\n")
        print("| board | turn to | reported | delay (ms) |")
        print("|---|---|---|---:|")
        for board in EventTrials.boards {
            for turn in try EventTrials.turns(board: board) {
                let delays = turn.reported.map { ms($0.time - turn.end) }.joined(separator: ", ")
                print("| \(board) | \(turn.expected.rawValue) | \(turn.reported.map(\.orientation.rawValue).joined(separator: ", ")) | \(delays) |")
            }
            for aboutZ in [false, true] {
                let changes = try EventTrials.wobble(aboutZ: aboutZ, board: board)
                print("| \(board) | ±3° around 45° (\(aboutZ ? "portrait/landscape" : "portrait/face up")), 16 s | \(changes.count) changes | |")
            }
        }
        print()
    }

    private func slaps() throws {
        print("### Slaps (the slap scenario: 9 slaps, right and left in turn)\n")
        print("| board | right direction, once | delay from the slap's start (ms, min–max) | shakes |")
        print("|---|---:|---:|---:|")
        for board in EventTrials.boards {
            let (slaps, shakes) = try EventTrials.slaps(board: board)
            let right = slaps.filter { $0.reported.map(\.direction) == [$0.direction] }
            let delays = slaps.flatMap { slap in slap.reported.map { $0.timestamp - slap.start } }
            print("| \(board) | \(right.count)/\(slaps.count) | \(delays.min().map(ms) ?? "–")–\(delays.max().map(ms) ?? "–") | \(shakes) |")
        }
        print()
    }

    /// `imu run`'s dispatch (the rules' `ActionRunner`, fired from the engine's thread as the daemon does) on the twin in real time: shake began
    /// toggles GPIO17 and pulses GPIO22, shake ended pulses GPIO27. Latency: the completing sample's timestamp to
    /// the line's change, both on the twin's clock (CLOCK_MONOTONIC).
    private func actions() throws {
        let session = try Hardware.openSimulated(scenario: "shake", errors: "typical", board: "sim", virtualTime: false)
        let twin = session.twin!
        let rules = [
            Rule(name: "toggle", trigger: .shake(phase: .began), actions: [.gpio(.lineName("GPIO17"), .toggle)]),
            Rule(name: "pulse", trigger: .shake(phase: .ended), actions: [.gpio(.lineName("GPIO27"), .pulse(milliseconds: pulse))]),
            Rule(name: "pulse on began", trigger: .shake(phase: .began), actions: [.gpio(.lineName("GPIO22"), .pulse(milliseconds: pulse))]),
        ]
        let runner = try ActionRunner(rules: rules, chip: twin.gpio, headerPins: [:])
        var ruleEngine = RuleEngine(rules: rules)
        let engine = try MotionEngine.forCommand(device: session, rateHz: 100, duration: seconds, calibrated: false)
        var fired: [(line: Int, time: Double)] = []
        engine.observe([.events]) { output in
            guard case .event(let event) = output else { return }
            for rule in ruleEngine.fire(event) {
                _ = runner.run(rule, for: event) { _ in }
                let line: Int = switch rule.name { case "toggle": 17; case "pulse": 27; default: 22 }
                fired.append((line, event.timestamp))
            }
        }
        // The daemon's MQTT front end, started as `imu run` starts it: observing after the rules,
        // so GPIO lines change before an event is formatted for MQTT.
        let broker = try mqtt.flatMap { try MQTTSettings.fromURL($0).get() }.map { MQTTFrontEnd(settings: $0, softwareVersion: IMUVersion.current) }
        if let broker {
            try broker.start(FrontEndContext(
                feed: EngineFeed(engine: engine), log: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() },
                calibration: CalibrationAccess(chip: nil, hasMagnetometer: false, directory: "", current: { nil }, apply: { _ in }),
                news: DaemonNews(), reload: DaemonRequest(), deviceSummary: "bench"))
        }
        defer { broker?.stop() }
        try engine.runForCommand()
        session.clock.sleep(seconds: Double(pulse) / 1000 + 0.1)  // the last pulse ends

        var latencies: [Double] = []
        for (line, time) in fired {
            if let change = twin.gpio.history(ofOutput: line).dropFirst().first(where: { $0.time >= time }) {
                latencies.append(change.time - time)
            }
        }
        var pulses: [Double] = []
        for line in [27, 22] {
            let history = Array(twin.gpio.history(ofOutput: line).dropFirst())
            for (rise, fall) in zip(history, history.dropFirst()) where rise.high && !fall.high { pulses.append(fall.time - rise.time) }
        }
        let publishing = broker?.publisher.map { publisher in
            let backlog = publisher.backlog
            return ", events published to MQTT: \(backlog.queued) messages waiting for the broker at the end, \(backlog.dropped) events dropped"
        } ?? ""
        print("### Actions (`imu run`'s dispatch, twin in real time, \(number(seconds, 0)) s of the shake scenario\(publishing))\n")
        print("| figure | n | min | max |")
        print("|---|---:|---:|---:|")
        print("| sample → GPIO line change (ms) | \(latencies.count) | \(number((latencies.min() ?? .nan) * 1000, 3)) | \(number((latencies.max() ?? .nan) * 1000, 3)) |")
        print("| \(pulse) ms pulse, measured (ms) | \(pulses.count) | \(number((pulses.min() ?? .nan) * 1000, 2)) | \(number((pulses.max() ?? .nan) * 1000, 2)) |")
        let within = pulses.filter { abs($0 * 1000 - Double(pulse)) <= 2 }.count
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        let scheduling = switch runner.pulseScheduling {
        case .realTime(let priority)?: "a real-time thread (SCHED_FIFO \(priority))"
        case .ordinary(let errno, _)?: "an ordinary thread (SCHED_FIFO refused: \(String(cString: strerror(errno))))"
        case nil: "–"
        }
        print("\npulses within ±2 ms: \(within)/\(pulses.count); load average during the run: \(load); pulses ended on \(scheduling)")
    }
}
