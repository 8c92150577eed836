import ArgumentParser
import Foundation
import IMUBoards
import IMUBus
import IMUConfigFile
import IMUEvents
import IMULinux
import IMUMotion
import IMURules
import IMUTwin
import Logging

/// `imu run`: the daemon. Reads the IMU, fuses, recognises events and fires the rules' actions.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run as a service: events from the IMU fire the rules file's GPIO and command actions.",
        discussion: """
            Logs go to standard error with journald priorities. SIGHUP reloads the rules (an invalid
            file is refused and the old rules stay); SIGTERM stops, GPIO lines back low.

            Examples:
              imu run --config /etc/imu/rules.toml
              imu run --config rules.toml --sim shake
            """)

    @Option(help: "The rules file.")
    var config: String = "/etc/imu/rules.toml"

    @OptionGroup var source: IMUSourceOptions

    @Option(help: "Samples per second.")
    var rate: Double = 100

    @Option(help: "Stop after this many seconds (default: until SIGTERM).")
    var duration: Double?

    func validate() throws {
        guard rate.isFinite, rate >= 10, rate <= 1000 else {
            throw ValidationError("--rate must be between 10 and 1000 samples per second, not \(rate)")
        }
    }

    func run() throws {
        StopSignal.install()
        StopSignal.installReload()
        var log = Logger(label: "imu") { JournalLogHandler(label: $0) }
        log.logLevel = .info

        let session = try source.open()
        var calibration = try AppliedCalibration(for: session.chipIdentity)
        let (chip, headerPins) = try Self.gpio(for: session)
        var rules = try loadRules(pins: Set(headerPins.keys))
        var runner: ActionRunner
        do {
            runner = try ActionRunner(rules: rules.rules, chip: chip, headerPins: headerPins)
        } catch {
            throw CommandError("\(error)")
        }
        var engine = RuleEngine(rules: rules.rules)
        log.info("started", metadata: [
            "chip": "\(session.driver.model.rawValue)", "board": "\(session.board.name)", "bus": "\(session.bus.name)",
            "rules": "\(rules.rules.count)", "calibration": "\(calibration.summary)", "gpio": "\(chip.label)",
        ])

        let magnetometer = session.driver.capabilities.magnetometer
        var pipeline = EventsCommand.pipeline(magnetometer: magnetometer)
        var detector = EventDetector()
        let stream = SampleStream(session: session, rate: rate, duration: duration)
        _ = try stream.configure()
        defer {
            Self.makeSafe(runner, rules: rules)
            log.info("stopped")
        }
        let dropped = try stream.run(afterBatch: {
            guard StopSignal.takeReloadRequest() else { return }
            do {
                let reloaded = try loadRules(pins: Set(headerPins.keys))
                let newRunner = try ActionRunner(rules: reloaded.rules, chip: chip, headerPins: headerPins, reusing: runner)
                rules = reloaded
                runner = newRunner
                engine = RuleEngine(rules: rules.rules)
                log.notice("rules reloaded", metadata: ["rules": "\(rules.rules.count)"])
            } catch {
                log.error("rules not reloaded, keeping the old ones: \(error)")
            }
        }) { raw in
            guard let motion = pipeline.update(calibration.apply(to: raw)) else { return false }
            for event in detector.update(
                gravity: motion.gravity, userAcceleration: motion.userAcceleration, heading: motion.heading,
                timestamp: motion.timestamp)
            {
                for rule in engine.fire(event) {
                    let failures = runner.run(rule, for: event) { outcome in
                        if outcome.timedOut || outcome.status != 0 {
                            Logger(label: "imu") { JournalLogHandler(label: $0) }.warning(
                                "command ended badly", metadata: [
                                    "command": "\(outcome.arguments.joined(separator: " "))",
                                    "status": "\(outcome.status)", "timed_out": "\(outcome.timedOut)",
                                ])
                        }
                    }
                    var metadata: Logger.Metadata = ["rule": "\(rule.name)", "event": "\(event.jsonLine)"]
                    for case .gpio(let target, _) in rule.actions {
                        if let line = runner.line(for: target) { metadata["line\(line.offset)"] = "\(line.isHigh ? "high" : "low")" }
                    }
                    log.info("rule fired", metadata: metadata)
                    for failure in failures { log.error("action failed: \(failure)", metadata: ["rule": "\(rule.name)"]) }
                }
            }
            return false
        }
        if dropped > 0 { log.warning("samples lost to FIFO overflows", metadata: ["count": "\(dropped)"]) }
    }

    func loadRules(pins: Set<Int>) throws -> RulesFile {
        do {
            return try RulesFile.load(from: config, headerPins: pins)
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// The GPIO chip of the header and its pin map: the twin's with --sim, else the computer's
    /// (found by its label, from the computer profile /proc/device-tree/model names).
    static func gpio(for session: HardwareSession) throws -> (any GPIOChip, [Int: Int]) {
        if let twin = session.twin {
            return (twin.gpio, twin.profile.headerPins.isEmpty ? VirtualGPIOChip.raspberryPiHeader : twin.profile.headerPins)
        }
        guard let computer = try? Hardware.catalog().computerProfile(), let label = computer.gpioChipLabel else {
            throw CommandError("cannot tell which computer this is (no Raspberry Pi profile matches /proc/device-tree/model), so its GPIO header is unknown")
        }
        do {
            return (try LinuxGPIOChip(label: label), computer.headerPins)
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// Every line the rules drive goes back low: the safe state when the daemon stops.
    static func makeSafe(_ runner: ActionRunner, rules: RulesFile) {
        for rule in rules.rules {
            for case .gpio(let target, _) in rule.actions { try? runner.line(for: target)?.set(high: false) }
        }
    }
}
