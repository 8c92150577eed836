import Foundation
import IMUBus
import IMUEvents
import Synchronization

/// Carries out rules' actions: GPIO lines change at once on the caller's thread (the latency
/// from event to line is a function call), pulses end on the pulse scheduler's thread (real-time
/// when the system allows it) with the semantics of `DrivenLine`, and commands run under a
/// `CommandSupervisor` (argv directly, never a shell; own process group; capped; reaped).
public final class ActionRunner: @unchecked Sendable {
    // @unchecked: every field is a constant; the lines and the supervisor lock themselves.
    private let lines: [GPIOTarget: DrivenLine]
    /// What ends pulses; nil when no rule pulses.
    private let pulseScheduler: (any PulseScheduler)?
    /// Runs the commands; carried over by a reload, so its counts cover the daemon's life.
    public let commands: CommandSupervisor

    /// Requests every GPIO line the rules name, as outputs set low, so a missing or busy line is
    /// an error at start, not when the event comes. `headerPins` maps header pin → line offset.
    /// `reusing`: a runner whose lines (with their pulses) and command supervisor carry over (a
    /// reload). `pulses`: what ends pulses (default: the real-time pulse thread). `onPulseEnd`:
    /// told on the pulse thread when a pulse has ended and its line is back at rest.
    public init(
        rules: [Rule], chip: any GPIOChip, headerPins: [Int: Int], consumer: String = "imu",
        reusing previous: ActionRunner? = nil, commandLimits: CommandLimits = CommandLimits(),
        pulses: (any PulseScheduler)? = nil, onPulseEnd: (@Sendable (any GPIOOutputLine) -> Void)? = nil
    ) throws(GPIOError) {
        var lines: [GPIOTarget: DrivenLine] = [:]
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
                lines[target] = DrivenLine(try chip.requestOutput(line: offset, consumer: consumer, initialHigh: false))
            }
        }
        for line in lines.values { line.setOnPulseEnd(onPulseEnd) }
        self.lines = lines
        let pulsing = rules.contains { $0.actions.contains { if case .gpio(_, .pulse) = $0 { true } else { false } } }
        pulseScheduler = pulses ?? previous?.pulseScheduler ?? (pulsing ? PulseTimer.shared : nil)
        commands = previous?.commands ?? CommandSupervisor(limits: commandLimits)
        commands.limits = commandLimits
    }

    /// How the thread that ends pulses is scheduled (nil: no rule pulses, or not that thread).
    /// Real-time needs CAP_SYS_NICE or an RLIMIT_RTPRIO of at least `pulseRealTimePriority`.
    public var pulseScheduling: ThreadScheduling? { (pulseScheduler as? PulseTimer)?.scheduling }
    public static var pulseRealTimePriority: Int32 { PulseTimer.realTimePriority }

    /// The output line a target was given (for tests and status).
    public func line(for target: GPIOTarget) -> (any GPIOOutputLine)? { lines[target]?.line }

    /// The level a target's line rests at between pulses.
    public func restingLevel(of target: GPIOTarget) -> Bool? { lines[target]?.restingLevel }

    /// Runs `rule`'s actions for `event`. GPIO failures and commands not launched (over a cap,
    /// or the spawn failed) are returned (the daemon logs them); commands that ran report
    /// through `onCommandExit`.
    @discardableResult
    public func run(_ rule: Rule, for event: MotionEvent, onCommandExit: (@Sendable (CommandOutcome) -> Void)? = nil) -> [Error] {
        var failures: [Error] = []
        for action in rule.actions {
            switch action {
            case let .gpio(target, operation):
                do { try perform(operation, on: target) } catch { failures.append(error) }
            case let .command(arguments, timeout):
                do {
                    try commands.launch(
                        arguments, rule: rule.name, timeout: timeout,
                        environment: CommandProgram.environment(rule: rule.name, event: event),
                        maxRunningForRule: rule.maxRunningCommands, onExit: onCommandExit)
                } catch {
                    failures.append(error)
                }
            }
        }
        return failures
    }

    private func perform(_ operation: GPIOOperation, on target: GPIOTarget) throws(GPIOError) {
        guard let line = lines[target] else { return }
        switch operation {
        case .setHigh: try line.set(high: true)
        case .setLow: try line.set(high: false)
        case .toggle: try line.toggle()
        case .pulse(let milliseconds):
            // Active now, back on the pulse thread: the fusion loop must not wait out the pulse.
            try line.pulse(milliseconds: milliseconds, on: pulseScheduler ?? PulseTimer.shared)
        }
    }

    /// The daemon stopping: every pulse ends at its line's resting level, every running command
    /// group is stopped (SIGTERM, SIGKILL after the grace period) and reaped.
    public func stop() {
        for line in lines.values { try? line.stop() }
        commands.stopAll()
    }

    // MARK: Commands

    public typealias CommandOutcome = CommandSupervisor.Outcome

    /// Commands that have not finished yet.
    public var runningCommands: Int { commands.counts.running }
}
