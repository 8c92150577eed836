import ArgumentParser
import Foundation
import IMUBoards
import IMUBus
import IMUConfigFile
import IMUEvents
import IMULinux
import IMUMQTT
import IMUMotion
import IMURules
import IMUTwin
import Logging

/// `imu run`: the daemon. Reads the IMU, fuses, recognises events and fires the rules' actions.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run as a service: events from the IMU fire the rules file's GPIO and command actions.", usage: "imu run [--config <rules.toml>] [--sim [<scenario>]] [<options>]",
        discussion: """
            Logs go to standard error with journald priorities. SIGHUP reloads the rules (an invalid \
            file is refused and the old rules stay; running commands are stopped); SIGTERM stops: \
            pulses end, running commands are stopped and reaped, GPIO lines back low.

            Examples:
              imu run --config /etc/imu/rules.toml
              imu run --config rules.toml --sim shake
              imu run --config rules.toml --low-power
            """)

    @Option(help: "The rules file.")
    var config: String = "/etc/imu/rules.toml"

    @OptionGroup var source: IMUSourceOptions

    @Option(parsing: .unconditional, help: "Samples per second.")
    var rate: Double = 100

    @Option(parsing: .unconditional, help: "Stop after this many seconds (default: until SIGTERM).")
    var duration: Double?

    @Flag(help: "Sleep between shakes, woken by the chip's INT pin (also `low-power = true` in the rules file).")
    var lowPower = false

    @Option(help: "Publish events and motion to this MQTT broker (mqtt://host:port or mqtts://host:port); overrides [mqtt] url in the rules file.")
    var mqtt: String?

    @Flag(help: "Remove this device from Home Assistant (empty retained discovery messages) and exit.")
    var mqttForget = false

    func validate() throws {
        guard rate.isFinite, rate >= 10, rate <= 1000 else {
            throw ValidationError("--rate must be between 10 and 1000 samples per second, not \(rate)")
        }
        if let mqtt, case .failure(let problem) = MQTTSettings.parseURL(mqtt) {
            throw ValidationError("--mqtt \(problem.reason), not \"\(mqtt)\"")
        }
    }

    /// `[mqtt]` from the rules file, its url replaced by `--mqtt`; nil when neither is given.
    func mqttSettings() throws -> MQTTSettings? {
        var settings: MQTTSettings?
        do {
            settings = try MQTTSettings.load(fromConfigFile: config)
        } catch {
            throw CommandError("\(error)")
        }
        if let mqtt, case .success(let address) = MQTTSettings.parseURL(mqtt) {
            if settings == nil, case .success(let fresh) = MQTTSettings.fromURL(mqtt) { settings = fresh }
            settings?.host = address.host
            settings?.port = address.port
            settings?.tls = address.tls
        }
        return settings
    }

    func run() throws {
        StopSignal.install()
        StopSignal.installReload()
        var log = Logger(label: "imu") { JournalLogHandler(label: $0) }
        log.logLevel = .info
        // A refusal at start is one journal line at error priority, escaped like every other
        // (the message may quote the rules file).
        do {
            try serve(log: log)
        } catch {
            log.error("\(error)")
            throw ExitCode.failure
        }
    }

    func serve(log: Logger) throws {
        let session = try source.open()
        let mqttSettings = try self.mqttSettings()
        let model = "\(session.driver.model.rawValue) on \(session.board.name)"
        if mqttForget {
            guard let mqttSettings else { throw CommandError("--mqtt-forget needs --mqtt URL or an [mqtt] table in \(config)") }
            do {
                try MQTTPublisher.forget(
                    settings: mqttSettings,
                    discovery: HomeAssistantDiscovery(settings: mqttSettings, model: model, softwareVersion: IMUVersion.current))
            } catch {
                throw CommandError("\(error)")
            }
            log.notice("removed \(mqttSettings.deviceID) from Home Assistant (discovery prefix \(mqttSettings.discoveryPrefix))")
            return
        }
        // A damaged or foreign calibration file: a warning, and the daemon runs uncalibrated.
        let calibration = AppliedCalibration(orUncalibratedFor: session.chipIdentity) { log.warning("\($0)") }
        let gpio = try session.headerGPIO()
        // A GPIO chip that goes away and comes back: each lost and requested-again line a warning.
        (gpio.chip as? ReacquiringGPIOChip)?.note = { log.warning("\($0)") }
        let (chip, headerPins) = gpio
        var rules = try loadRules(pins: Set(headerPins.keys))
        try RuleLineCheck.check(rules, chip: chip, file: config)
        for warning in HeaderPinAdvice.warnings(for: rules) { log.warning("\(warning)") }
        var runner: ActionRunner
        do {
            runner = try ActionRunner(rules: rules.rules, chip: chip, headerPins: headerPins, commandLimits: rules.commandLimits)
        } catch {
            throw CommandError("\(error)")
        }
        runner.commands.onOutput = { [log] rule, pid, line in
            log.info("command output: \(line)", metadata: ["rule": "\(rule)", "pid": "\(pid)"])
        }
        let dropWarnings = WarningThrottle()
        var engine = RuleEngine(rules: rules.rules)
        let lowPower = self.lowPower || rules.lowPower
        log.info("started", metadata: [
            "chip": "\(session.driver.model.rawValue)", "board": "\(session.board.name)", "bus": "\(session.bus.name)",
            "rules": "\(rules.rules.count)", "calibration": "\(calibration.summary)", "gpio": "\(chip.label)",
            "low_power": "\(lowPower)",
        ])
        if let notice = calibration.uncalibratedNotice(hasMagnetometer: session.driver.capabilities.magnetometer, source: source) {
            log.warning("\(notice)")
        }

        var toldPulseScheduling = false
        func tellPulseScheduling() {
            guard !toldPulseScheduling, let scheduling = runner.pulseScheduling else { return }
            toldPulseScheduling = true
            Self.log(scheduling, to: log)
        }
        tellPulseScheduling()

        var pipeline = EventPipeline(
            calibration: calibration, magnetometer: session.driver.capabilities.magnetometer,
            headingFilterDegrees: Self.headingFilter(rules))
        let mqttCommands = MQTTCommands()
        let broker = try mqttSettings.map { settings in try DaemonMQTT(settings: settings, model: model, commands: mqttCommands, log: log) }
        var gyroCalibration = DaemonGyroCalibration(requests: mqttCommands.calibrateGyro, chip: session.chipIdentity)
        defer {
            runner.stop()
            Self.makeSafe(runner, rules: rules)
            broker?.stop()
            log.info("stopped", metadata: ["commands": "\(runner.commands.counts)"])
        }
        func reloadIfAsked() {
            let fromBroker = mqttCommands.reload.take()
            guard StopSignal.takeReloadRequest() || fromBroker else { return }
            do {
                let reloaded = try loadRules(pins: Set(headerPins.keys))
                try RuleLineCheck.check(reloaded, chip: chip, file: config)
                let newRunner = try ActionRunner(
                    rules: reloaded.rules, chip: chip, headerPins: headerPins, reusing: runner, commandLimits: reloaded.commandLimits)
                // The old rules' commands do not outlive them.
                runner.commands.stopAll()
                rules = reloaded
                runner = newRunner
                engine = RuleEngine(rules: rules.rules)
                pipeline.detector.headingFilter = Self.headingFilter(rules).map(HeadingFilter.init(minimumChangeDegrees:))
                log.notice("rules reloaded", metadata: ["rules": "\(rules.rules.count)"])
                tellPulseScheduling()
                if fromBroker { mqttCommands.reload.answer(.reloaded(rules: rules.rules.count)) }
            } catch {
                log.error("rules not reloaded, keeping the old ones: \(error)")
                if fromBroker { mqttCommands.reload.answer(.refused("rules not reloaded, keeping the old ones: \(error)")) }
            }
        }
        func fire(_ events: [MotionEvent]) {
            for event in events {
                for rule in engine.fire(event) { Self.run(rule, for: event, runner: runner, log: log, dropWarnings: dropWarnings) }
            }
            // After the rules: GPIO lines change before the event is formatted for MQTT.
            if let broker { for event in events { broker.publish(event) } }
        }

        if lowPower {
            var watch = try LowPowerWatch(session: session, rate: rate, duration: duration, gpio: gpio)
            watch.report = Self.troubleReporter(log)
            let losses = try watch.run(pipeline: &pipeline, afterBatch: reloadIfAsked, events: fire) { transition in
                if transition.isTrouble { log.warning("\(transition.note)") } else { log.info("\(transition.note)") }
            }
            if losses.samples > 0 || losses.unwatchedSeconds > 0 {
                log.warning("lost to FIFO overflows and bus outages", metadata: [
                    "samples": "\(losses.samples)", "unwatched_s": "\(number(losses.unwatchedSeconds, 2))",
                ])
            }
            return
        }
        var stream = SampleStream(session: session, rate: rate, duration: duration)
        stream.report = Self.troubleReporter(log)
        _ = try stream.configure()
        let dropped = try stream.run(afterBatch: reloadIfAsked) { sample in
            if let calibrated = gyroCalibration.feed(sample, current: pipeline.calibration.file, log: { log.notice("\($0)") }) {
                pipeline.calibration = AppliedCalibration(file: calibrated)
            }
            fire(pipeline.update(sample))
            if let broker, let motion = pipeline.lastMotion { broker.update(motion) }
            return false
        }
        if dropped > 0 { log.warning("samples lost to FIFO overflows and bus outages", metadata: ["count": "\(dropped)"]) }
    }

    /// Runs a rule's actions at once (GPIO lines change before the next sample is read) and
    /// logs what it did.
    static func run(_ rule: Rule, for event: MotionEvent, runner: ActionRunner, log: Logger, dropWarnings: WarningThrottle = WarningThrottle()) {
        let failures = runner.run(rule, for: event) { outcome in
            var metadata: Logger.Metadata = [
                "rule": "\(outcome.rule)", "command": "\(outcome.arguments.joined(separator: " "))",
                "pid": "\(outcome.pid)", "status": "\(outcome.status)", "end": "\(outcome.end.rawValue)",
            ]
            if outcome.outputLinesDropped > 0 || outcome.outputBytesDropped > 0 {
                metadata["output_dropped"] = "\(outcome.outputLinesDropped) lines, \(outcome.outputBytesDropped) bytes"
            }
            if outcome.abandoned { metadata["abandoned"] = "members of its group outlived SIGKILL under another parent" }
            switch outcome.end {
            case .finished where outcome.status == 0: log.debug("command finished", metadata: metadata)
            case .finished: log.warning("command failed", metadata: metadata)
            case .timedOut: log.warning("command timed out; its process group was stopped", metadata: metadata)
            case .stopped: log.notice("command stopped", metadata: metadata)
            }
        }
        var metadata: Logger.Metadata = ["rule": "\(rule.name)", "event": "\(event.jsonLine)"]
        for case .gpio(let target, _) in rule.actions {
            if let line = runner.line(for: target) { metadata["line\(line.offset)"] = "\(line.isHigh ? "high" : "low")" }
        }
        log.info("rule fired", metadata: metadata)
        for failure in failures {
            if let launch = failure as? CommandSupervisor.LaunchError, launch.dropped {
                if dropWarnings.allows() { log.warning("command not launched: \(launch)", metadata: ["rule": "\(rule.name)"]) }
            } else {
                log.error("action failed: \(failure)", metadata: ["rule": "\(rule.name)"])
            }
        }
    }

    /// Where acquisition trouble (bus outages, the chip's recovery) goes: the journal at warning
    /// priority, so `journalctl -p warning` shows every outage.
    static func troubleReporter(_ log: Logger) -> (String) -> Void {
        { log.warning("\($0)") }
    }

    /// The heading filter the rules need (nil: no rule is on heading, so no heading events).
    static func headingFilter(_ rules: RulesFile) -> Double? {
        rules.rules.contains { $0.trigger == .heading } ? rules.headingFilterDegrees : nil
    }

    /// One line on how pulses will end: on a real-time thread, or (a warning) on an ordinary
    /// one, saying why and what would allow real-time.
    static func log(_ scheduling: ThreadScheduling, to log: Logger) {
        switch scheduling {
        case .realTime(let priority):
            log.info("pulses end on a real-time thread (SCHED_FIFO, priority \(priority))")
        case let .ordinary(errno, limit):
            let wanted = ActionRunner.pulseRealTimePriority
            log.warning("""
                pulses end on an ordinary thread: SCHED_FIFO priority \(wanted) was refused \
                (\(String(cString: strerror(errno))); RLIMIT_RTPRIO is \(limit)), so a busy machine can make a pulse run long; \
                real-time needs CAP_SYS_NICE or RLIMIT_RTPRIO ≥ \(wanted) (LimitRTPRIO=\(wanted) in the service unit, \
                `prlimit --rtprio=\(wanted)` by hand)
                """)
        }
    }

    func loadRules(pins: Set<Int>) throws -> RulesFile {
        do {
            return try RulesFile.load(from: config, headerPins: pins)
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

/// At most one warning a second of a kind that can come with every event (commands dropped over
/// their cap): the first is told, the rest are counted in the next one that is.
final class WarningThrottle {
    private var lastTold = -Double.infinity

    func allows(now: Double = ProcessInfo.processInfo.systemUptime) -> Bool {
        guard now - lastTold >= 1 else { return false }
        lastTold = now
        return true
    }
}
