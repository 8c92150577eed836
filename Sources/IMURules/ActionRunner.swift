import Foundation
import IMUBus
import IMUEvents
import Synchronization

/// Carries out rules' actions: GPIO lines change at once on the caller's thread (the latency
/// from event to line is a function call), pulses end on the pulse timer's thread (real-time
/// when the system allows it), and commands run as child processes (argv directly, never a
/// shell) that are killed when they overrun their timeout.
public final class ActionRunner: @unchecked Sendable {
    // @unchecked: the lines are only used from the thread that calls `run` and from the pulse
    // timers, which take `lock` first.
    private let lines: [GPIOTarget: any GPIOOutputLine]
    private let lock = NSLock()
    private let timers = DispatchQueue(label: "imu.actions.timers")
    /// The thread that ends pulses; nil when no rule pulses.
    private let pulseTimer: PulseTimer?
    /// Commands still running, for `waitForCommands` and shutdown.
    private let running = Mutex<Set<Int32>>([])

    /// Requests every GPIO line the rules name, as outputs set low, so a missing or busy line is
    /// an error at start, not when the event comes. `headerPins` maps header pin → line offset.
    /// `reusing`: a runner whose lines carry over (a reload keeps the lines it already holds).
    public init(
        rules: [Rule], chip: any GPIOChip, headerPins: [Int: Int], consumer: String = "imu",
        reusing previous: ActionRunner? = nil
    ) throws(GPIOError) {
        var lines: [GPIOTarget: any GPIOOutputLine] = [:]
        for rule in rules {
            for case .gpio(let target, _) in rule.actions where lines[target] == nil {
                if let held = previous?.lines[target] {
                    lines[target] = held
                    continue
                }
                let offset: Int
                switch target {
                case .headerPin(let pin):
                    guard let line = headerPins[pin] else {
                        throw GPIOError(.invalidLine, chip: chip.label, detail: "header pin \(pin) has no GPIO line on this board")
                    }
                    offset = line
                case .lineName(let name):
                    offset = try chip.lineOffset(named: name)
                }
                lines[target] = try chip.requestOutput(line: offset, consumer: consumer, initialHigh: false)
            }
        }
        self.lines = lines
        let pulses = rules.contains { $0.actions.contains { if case .gpio(_, .pulse) = $0 { true } else { false } } }
        pulseTimer = pulses ? PulseTimer.shared : nil
    }

    /// How the thread that ends pulses is scheduled (nil: no rule pulses). Real-time needs
    /// CAP_SYS_NICE or an RLIMIT_RTPRIO of at least `pulseRealTimePriority`.
    public var pulseScheduling: ThreadScheduling? { pulseTimer?.scheduling }
    public static var pulseRealTimePriority: Int32 { PulseTimer.realTimePriority }

    /// The output line a target was given (for tests and status).
    public func line(for target: GPIOTarget) -> (any GPIOOutputLine)? { lines[target] }

    /// Runs `rule`'s actions for `event`. GPIO failures are returned (the daemon logs them);
    /// commands report through `onCommandExit`.
    @discardableResult
    public func run(_ rule: Rule, for event: MotionEvent, onCommandExit: (@Sendable (CommandOutcome) -> Void)? = nil) -> [Error] {
        var failures: [Error] = []
        for action in rule.actions {
            switch action {
            case let .gpio(target, operation):
                do { try perform(operation, on: target) } catch { failures.append(error) }
            case let .command(arguments, timeout):
                do {
                    try launch(arguments, timeout: timeout, environment: Self.environment(rule: rule, event: event), onExit: onCommandExit)
                } catch {
                    failures.append(error)
                }
            }
        }
        return failures
    }

    private func perform(_ operation: GPIOOperation, on target: GPIOTarget) throws(GPIOError) {
        guard let line = lines[target] else { return }
        lock.lock()
        defer { lock.unlock() }
        switch operation {
        case .setHigh: try line.set(high: true)
        case .setLow: try line.set(high: false)
        case .toggle: try line.set(high: !line.isHigh)
        case .pulse(let milliseconds):
            // Active now, back on the pulse thread: the fusion loop must not wait out the pulse.
            let previous = line.isHigh
            try line.set(high: !previous)
            let end = PulseTimer.now() + Int64(milliseconds) * 1_000_000
            (pulseTimer ?? PulseTimer.shared).schedule(at: end) { [self] in
                lock.lock()
                try? lines[target]?.set(high: previous)
                lock.unlock()
            }
        }
    }

    // MARK: Commands

    public struct CommandOutcome: Sendable, Equatable {
        public var arguments: [String]
        /// The exit status, or the signal when it was killed.
        public var status: Int32
        public var timedOut: Bool
    }

    /// What a command learns about the event that ran it.
    static func environment(rule: Rule, event: MotionEvent) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["IMU_RULE"] = rule.name
        environment["IMU_EVENT"] = event.type
        environment["IMU_EVENT_TIME"] = String(event.timestamp)
        environment["IMU_EVENT_JSON"] = event.jsonLine
        switch event {
        case .shake(let shake):
            switch shake {
            case .began: environment["IMU_PHASE"] = "began"
            case .ended: environment["IMU_PHASE"] = "ended"
            case .cancelled: environment["IMU_PHASE"] = "cancelled"
            }
        case .orientation(let orientation, _): environment["IMU_ORIENTATION"] = orientation.rawValue
        case .slap(let slap): environment["IMU_DIRECTION"] = slap.direction.rawValue
        case .heading(let degrees, _): environment["IMU_HEADING_DEG"] = String(degrees)
        }
        return environment
    }

    private func launch(
        _ arguments: [String], timeout: Double, environment: [String: String],
        onExit: (@Sendable (CommandOutcome) -> Void)?
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let timedOut = Mutex(false)
        process.terminationHandler = { [self] finished in
            running.withLock { _ = $0.remove(finished.processIdentifier) }
            onExit?(CommandOutcome(
                arguments: arguments, status: finished.terminationStatus, timedOut: timedOut.withLock { $0 }))
        }
        try process.run()
        let pid = process.processIdentifier
        running.withLock { _ = $0.insert(pid) }
        timers.asyncAfter(deadline: .now() + timeout) { [self] in
            guard running.withLock({ $0.contains(pid) }) else { return }
            timedOut.withLock { $0 = true }
            kill(pid, SIGTERM)
            // A command that ignores SIGTERM gets SIGKILL a second later.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [self] in
                if running.withLock({ $0.contains(pid) }) { kill(pid, SIGKILL) }
            }
        }
    }

    /// Commands that have not finished yet.
    public var runningCommands: Int { running.withLock { $0.count } }
}

