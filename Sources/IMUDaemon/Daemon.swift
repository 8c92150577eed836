import Foundation
import IMUBus
import IMUCalibration
import IMUDrivers
import IMUEngine
import IMUEvents
import IMUFrontEnd
import IMURules
import Logging

/// Why the daemon refused to start (or a reload was refused), in words that name the file and line.
public struct DaemonError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The daemon `imu run` starts, as a library type: one engine on the IMU, the rules file's
/// rules firing their GPIO and command actions, reloads (SIGHUP, a front end's request), the
/// front ends it is given (`FrontEnd`: each started with the same context), and a clean stop
/// (front ends stopped, pulses ended, commands stopped and reaped, lines back to rest).
/// Testable in process: give it a twin device and its GPIO chip, run it on a thread, stop it.
///
/// ```swift
/// let daemon = try Daemon(settings: .init(rulesFile: "rules.toml"), device: device, gpio: try device.headerGPIO(), log: log)
/// daemon.frontEnds = [SocketFrontEnd(settings: .init(path: "/tmp/imu.sock"))]
/// try daemon.run()            // until requestStop(), the duration or a stop signal
/// ```
public final class Daemon: @unchecked Sendable {
    public struct Settings {
        /// The rules file; nil: no rules (the daemon shares the IMU and fires nothing).
        public var rulesFile: String?
        public var rateHz = 100.0
        /// Stop after this many seconds (on the device's clock); nil: until stopped.
        public var duration: Double?
        /// Low power (also `low-power = true` in the rules file).
        public var lowPower = false
        /// The options that name this IMU in the commands an uncalibrated notice suggests.
        public var calibrateCommandOptions = ""
        /// Where the gyro offsets learned at rest are kept across restarts: the service's state
        /// directory (`StateDirectory=imu`, so `$STATE_DIRECTORY`, /var/lib/imu); nil when run
        /// by hand (learned afresh each run).
        public var learnedGyroOffsetsDirectory: String? = ProcessInfo.processInfo.environment["STATE_DIRECTORY"]
            .flatMap { $0.split(separator: ":").first.map(String.init) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
        /// Where the calibration file is looked for.
        public var calibrationSearchPath = SensorCalibration.standardSearchPath
        /// The local field strength (World Magnetic Model at `--location`) a magnetometer
        /// calibration started by a front end is checked against; nil: no location known.
        public var expectedFieldMicrotesla: Double?

        public init(rulesFile: String?) {
            self.rulesFile = rulesFile
        }
    }

    public let settings: Settings
    public let device: IMUDevice
    public let gpio: HeaderGPIO
    public let log: Logger
    /// The engine, there from `init` on: front ends subscribe to it.
    public let engine: MotionEngine
    /// Checked between reads besides `requestStop`: a stop asked for from outside (a signal).
    /// Set before `run` (read once when it starts).
    public var shouldStop: () -> Bool = { false }
    /// Checked between reads: a reload asked for from outside (SIGHUP). Set before `run`.
    public var takeReloadRequest: () -> Bool = { false }
    /// Started after "started" is logged, stopped (last first) before "stopped". A required
    /// one that cannot start stops the start; any other is a warning and the daemon runs on.
    public var frontEnds: [any FrontEnd] = []
    /// The rules in force, each firing and each level a pulse's end changes, for the front ends.
    public let news: DaemonNews
    /// A rules reload asked for by a front end (MQTT's `reload`), answered once it is done.
    public let reloadRequest = DaemonRequest<ReloadOutcome>()

    private(set) var rules: RulesFile
    private(set) var runner: ActionRunner
    private var ruleEngine: RuleEngine
    private var rulesObserver: Int?
    private let dropWarnings = WarningThrottle()
    /// Reads and checks reloaded rules off the acquisition thread (SIGHUP, MQTT `reload`).
    private var reloader: RulesReloader!
    /// "rule fired" lines, at most a few a second; the rest counted.
    private var firedLog = RuleFiredLogLimit()
    private var toldPulseScheduling = false

    /// Loads and checks the rules (refused with file:line), the calibration (a damaged one is a
    /// warning: the daemon runs uncalibrated), and builds the engine.
    public init(settings: Settings, device: IMUDevice, gpio: HeaderGPIO, log: Logger) throws(DaemonError) {
        self.settings = settings
        self.device = device
        self.gpio = gpio
        self.log = log
        news = DaemonNews()
        // A GPIO chip that goes away and comes back: each lost and requested-again line a warning.
        (gpio.chip as? ReacquiringGPIOChip)?.note = { log.warning("\($0)") }
        if let path = settings.rulesFile {
            rules = try Self.loadRules(path, gpio: gpio)
        } else {
            rules = RulesFile(rules: [])
        }
        do {
            runner = try ActionRunner(
                rules: rules.rules, chip: gpio.chip, headerPins: gpio.headerPins, commandLimits: rules.commandLimits,
                onPulseEnd: Self.tellPulseEnd(to: news))
        } catch {
            throw DaemonError("\(error)")
        }
        ruleEngine = RuleEngine(rules: rules.rules)
        for warning in HeaderPinAdvice.warnings(for: rules) { log.warning("\(warning)") }
        let calibration = SensorCalibration.storedOrNone(for: device.chipIdentity, searching: settings.calibrationSearchPath) {
            log.warning("\($0)")
        }
        var lowPower: LowPowerAcquisition?
        if settings.lowPower || rules.lowPower {
            do {
                lowPower = try LowPowerAcquisition(device: device, gpio: gpio)
            } catch {
                throw DaemonError(error.description)
            }
        }
        engine = MotionEngine(device: device, settings: MotionEngine.Settings(
            rateHz: settings.rateHz, duration: settings.duration, calibration: calibration,
            headingFilterDegrees: Self.headingFilter(rules), lowPower: lowPower,
            learnedGyroOffsetsDirectory: settings.learnedGyroOffsetsDirectory))
        // The chip is asked for line names from the loading thread; every chip locks itself
        // (libgpiod's lookups open their own line handles; the twin's and the reacquiring
        // chip's state is under a lock).
        nonisolated(unsafe) let gpio = gpio
        let path = settings.rulesFile
        reloader = RulesReloader(deadline: Self.reloadDeadline) {
            guard let path else { return .refused("there is no rules file to reload (start imu run with --config FILE)") }
            do throws(DaemonError) {
                return .loaded(try Self.loadRules(path, gpio: gpio))
            } catch {
                return .refused(error.description)
            }
        }
        runner.commands.onOutput = { [log] rule, pid, line in
            log.info("command output: \(line)", metadata: ["rule": "\(rule)", "pid": "\(pid)"])
        }
    }

    /// Asks the daemon to stop at its next sample (from any thread).
    public func requestStop() { engine.requestStop() }

    /// The rules in force.
    public var ruleCount: Int { rules.rules.count }

    /// Runs until a stop, the duration or a fault it cannot ride out; on the calling thread.
    /// Whatever ends it, pulses end, commands are stopped and reaped, and driven lines go back
    /// to rest.
    public func run() throws(DaemonError) {
        let calibration = engine.settings.calibration
        log.info("started", metadata: [
            "chip": "\(device.driver.model.rawValue)", "board": "\(device.board.name)", "bus": "\(device.bus.name)",
            "rules": "\(rules.rules.count)", "calibration": "\(calibration.summary)", "gpio": "\(gpio.chip.label)",
            "low_power": "\(engine.settings.lowPower != nil)",
        ])
        if let notice = calibration.uncalibratedNotice(
            hasMagnetometer: device.driver.capabilities.magnetometer, commandOptions: settings.calibrateCommandOptions) {
            log.warning("\(notice)")
        }
        tellPulseScheduling()
        tellRules()
        observeRules()
        engine.onNotice = { [log] in Self.log($0, to: log) }
        // Read once (they are set before `run`): each read of a stored closure is an exclusivity
        // check, and these run at every sample.
        let shouldStop = self.shouldStop, takeReloadRequest = self.takeReloadRequest
        engine.housekeeping = { [self] in reloadIfAsked(signalled: takeReloadRequest) }
        engine.shouldStop = shouldStop
        defer {
            // A reload still being read at the stop: its outcome told, not applied.
            for report in reloader.settle(timeout: 1) { tell(report, applying: false) }
            flushFiredLog()
            runner.stop()
            Self.makeSafe(runner, rules: rules)
            log.info("stopped", metadata: ["commands": "\(runner.commands.counts)"])
        }
        let started = try startFrontEnds()
        // Stopped before the rest is (registered last, run first).
        defer { for frontEnd in started.reversed() { frontEnd.stop() } }
        do throws(IMUDriverError) {
            try engine.run()
        } catch {
            throw DaemonError("\(error)")
        }
        let health = engine.health
        if health.lostSamples > 0 {
            log.warning("samples lost to FIFO overflows and bus outages", metadata: ["count": "\(health.lostSamples)"])
        }
    }

    /// What every front end is given: the engine's feed (a calibration reload looks where the
    /// daemon looks), the log, the calibration, the daemon's news and its reload request.
    var frontEndContext: FrontEndContext {
        let engine = self.engine
        let magnetometer = device.driver.capabilities.magnetometer
        let calibration = CalibrationAccess(
            chip: device.chipIdentity, hasMagnetometer: magnetometer,
            directory: CalibrationDirectory.forWriting(environment: ProcessInfo.processInfo.environment),
            expectedFieldMicrotesla: settings.expectedFieldMicrotesla, current: { engine.calibrationFile }, apply: { engine.setCalibration(SensorCalibration(file: $0)) })
        return FrontEndContext(
            feed: EngineFeed(engine: engine, calibrationSearchPath: settings.calibrationSearchPath), log: log,
            calibration: calibration, news: news, reload: reloadRequest, deviceSummary: device.summary)
    }

    /// Starts each front end in order; when a required one cannot start, those started are
    /// stopped again and the daemon refuses to run.
    private func startFrontEnds() throws(DaemonError) -> [any FrontEnd] {
        let context = frontEndContext
        var started: [any FrontEnd] = []
        for frontEnd in frontEnds {
            do {
                try frontEnd.start(context)
                started.append(frontEnd)
            } catch {
                guard frontEnd.isRequired else {
                    log.warning("\(error)", metadata: ["front_end": "\(frontEnd.name)"])
                    continue
                }
                for running in started.reversed() { running.stop() }
                throw DaemonError("\(error)")
            }
        }
        return started
    }

    /// Events go to the rules while there are rules; with none, the rules need no data (and the
    /// chip may sleep when nothing else does). The rules observe first (before any front end's
    /// observer), so GPIO lines change before an event is formatted for a peer.
    private func observeRules() {
        if let rulesObserver { engine.removeObserver(rulesObserver) }
        rulesObserver = nil
        if !rules.rules.isEmpty {
            rulesObserver = engine.observe([.events], first: true) { [self] output in
                guard case .event(let event) = output else { return }
                let fired = ruleEngine.fire(event)
                guard !fired.isEmpty else { return }
                // Formatted once for every rule it fires.
                let line = event.jsonLine
                for rule in fired { fire(rule, for: event, line: line) }
            }
        }
    }

    /// How long a reload may read and check the rules file before it is given up.
    static let reloadDeadline = 10.0

    /// On the acquisition thread between batches: passes reload requests to the loading thread,
    /// and swaps in rules it has checked (the swap itself is a few dictionary lookups per rule).
    private func reloadIfAsked(signalled takeReloadRequest: () -> Bool) {
        let fromFrontEnd = reloadRequest.take()
        let fromSignal = takeReloadRequest()
        if fromSignal || fromFrontEnd { reloader.request(askerWaits: fromFrontEnd) }
        for report in reloader.poll() { tell(report, applying: true) }
        // The clock is read only when there is a count to tell (not at every sample).
        guard firedLog.hasSkipped else { return }
        let skipped = firedLog.flush(now: ProcessInfo.processInfo.systemUptime, force: false)
        if skipped.count > 0 { logSkipped(skipped) }
    }

    private func tell(_ report: RulesReloader.Report, applying: Bool) {
        let path = settings.rulesFile ?? "(no rules file)"
        switch report {
        case let .finished(.loaded(reloaded), seconds, waits):
            guard applying else {
                log.notice("rules reload finished at the stop; not applied", metadata: ["rules": "\(reloaded.rules.count)"])
                if waits { reloadRequest.answer(.refused("the daemon stopped before the new rules were applied")) }
                return
            }
            do throws(DaemonError) {
                try apply(reloaded)
                log.notice("rules reloaded", metadata: ["rules": "\(rules.rules.count)", "took_s": "\(Self.seconds(seconds))"])
                tellPulseScheduling()
                if waits { reloadRequest.answer(.reloaded(rules: rules.rules.count)) }
            } catch {
                refuse("\(error)", answering: waits)
            }
        case let .finished(.refused(reason), _, waits):
            refuse(reason, answering: waits)
        case let .abandoned(seconds, waits):
            refuse("\(path): reading and checking it took more than \(Self.seconds(seconds)) s; given up", answering: waits)
        case let .refusedWhileStuck(waits):
            refuse("\(path): an earlier reload is still stuck reading it", answering: waits)
        }
    }

    private func refuse(_ reason: String, answering: Bool) {
        log.error("rules not reloaded, keeping the old ones: \(reason)")
        if answering { reloadRequest.answer(.refused("rules not reloaded, keeping the old ones: \(reason)")) }
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Swaps checked rules in: their lines requested (lines both sets drive carry over with
    /// their pulses), the old rules' commands stopped.
    private func apply(_ reloaded: RulesFile) throws(DaemonError) {
        let newRunner: ActionRunner
        do {
            newRunner = try ActionRunner(
                rules: reloaded.rules, chip: gpio.chip, headerPins: gpio.headerPins, reusing: runner,
                commandLimits: reloaded.commandLimits, onPulseEnd: Self.tellPulseEnd(to: news))
        } catch {
            throw DaemonError("\(error)")
        }
        // The old rules' commands do not outlive them.
        runner.commands.stopAll()
        flushFiredLog()
        rules = reloaded
        runner = newRunner
        tellRules()
        ruleEngine = RuleEngine(rules: rules.rules)
        let heading = Self.headingFilter(rules)
        engine.changePipeline { $0.setHeadingFilter(degrees: heading) }
        observeRules()
    }

    /// Runs a rule's actions at once (GPIO lines change before the next sample is read) and
    /// logs what it did.
    private func fire(_ rule: Rule, for event: MotionEvent, line eventLine: String) {
        let log = self.log
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
        var metadata: Logger.Metadata = ["rule": "\(rule.name)", "event": "\(eventLine)"]
        var levels: [GPIOLevel] = []
        for case .gpio(let target, _) in rule.actions {
            if let line = runner.line(for: target) {
                metadata["line\(line.offset)"] = "\(line.isHigh ? "high" : "low")"
                levels.append(GPIOLevel(line))
            }
        }
        news.tell(.ruleFired(rule: rule.name, eventLine: eventLine, timestamp: event.timestamp, lines: levels))
        switch firedLog.take(now: ProcessInfo.processInfo.systemUptime) {
        case .log(let skipped):
            if skipped.count > 0 { logSkipped(skipped) }
            log.info("rule fired", metadata: metadata)
        case .skip:
            break
        }
        for failure in failures {
            if let launch = failure as? CommandSupervisor.LaunchError, launch.dropped {
                if dropWarnings.allows() { log.warning("command not launched: \(launch)", metadata: ["rule": "\(rule.name)"]) }
            } else {
                log.error("action failed: \(failure)", metadata: ["rule": "\(rule.name)"])
            }
        }
    }

    private func logSkipped(_ skipped: RuleFiredLogLimit.Skipped) {
        log.info("rules fired without a line each", metadata: [
            "count": "\(skipped.count)", "over_s": "\(Self.seconds(skipped.seconds))",
            "limit": "\(RuleFiredLogLimit.linesPerWindow) lines per \(Self.seconds(RuleFiredLogLimit.window)) s",
        ])
    }

    /// The count of unlogged firings, told before the rules change or the daemon stops.
    private func flushFiredLog() {
        let skipped = firedLog.flush(now: ProcessInfo.processInfo.systemUptime)
        if skipped.count > 0 { logSkipped(skipped) }
    }

    /// One line on how pulses will end: on a real-time thread, or (a warning) on an ordinary
    /// one, saying why and what would allow real-time.
    private func tellPulseScheduling() {
        guard !toldPulseScheduling, let scheduling = runner.pulseScheduling else { return }
        toldPulseScheduling = true
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

    // MARK: Loading

    static func loadRules(_ path: String, gpio: HeaderGPIO) throws(DaemonError) -> RulesFile {
        let rules: RulesFile
        do {
            rules = try RulesFile.load(from: path, headerPins: gpio.absenceReason == nil ? Set(gpio.headerPins.keys) : nil)
        } catch {
            throw DaemonError("\(error)")
        }
        if let reason = gpio.absenceReason,
            let rule = rules.rules.first(where: { $0.actions.contains { if case .gpio = $0 { true } else { false } } })
        {
            throw DaemonError("\(path):\(rule.line): rule \"\(rule.name)\" drives a GPIO line, but this computer has no GPIO header imu can use (\(reason)); remove the rule's GPIO actions, or keep command actions only")
        }
        try RuleLineCheck.check(rules, chip: gpio.chip, file: path)
        return rules
    }

    /// Acquisition trouble (a bus outage) goes to the journal at warning priority, so
    /// `journalctl -p warning` shows every outage; recoveries and low-power changes at info.
    public static func log(_ notice: MotionEngine.Notice, to log: Logger) {
        if notice.isTrouble { log.warning("\(notice.text)") } else { log.info("\(notice.text)") }
    }

    /// The heading filter the rules need (nil: no rule is on heading, so no heading events).
    static func headingFilter(_ rules: RulesFile) -> Double? {
        rules.rules.contains { $0.trigger == .heading } ? rules.headingFilterDegrees : nil
    }

    /// A pulse's end as news: the line's level now (a page shows the relay off again).
    static func tellPulseEnd(to news: DaemonNews) -> @Sendable (any GPIOOutputLine) -> Void {
        { line in news.tell(.levels([GPIOLevel(line)])) }
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
final class WarningThrottle: @unchecked Sendable {
    private var lastTold = -Double.infinity

    func allows(now: Double = ProcessInfo.processInfo.systemUptime) -> Bool {
        guard now - lastTold >= 1 else { return false }
        lastTold = now
        return true
    }
}
