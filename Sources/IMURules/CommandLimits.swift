/// What a long-running daemon allows its command actions: how many run at once, how much of
/// their output reaches the log, how long a process group gets between SIGTERM and SIGKILL.
/// The rules file sets them (see `Scripts/rules.example.toml`); these are the defaults.
public struct CommandLimits: Sendable, Equatable {
    /// Commands running at once over all rules (`max-running-commands` at the top of the file);
    /// a launch beyond it is dropped, with a warning, and counted.
    public var maxRunning: Int
    /// Commands of one rule running at once (`max-running-commands` in a [[rule]]), unless the
    /// rule says otherwise.
    public var maxRunningPerRule: Int
    /// Lines of a launch's output (stdout and stderr together) that reach the log
    /// (`command-output-lines`); the rest are counted and dropped.
    public var outputLines: Int
    /// Bytes of a launch's output that reach the log (`command-output-bytes`).
    public var outputBytes: Int
    /// Seconds between SIGTERM and SIGKILL to a command's process group
    /// (`command-kill-grace-ms`).
    public var killGrace: Double
    /// Output lines per second reaching the log over all commands (a burst of twice as many);
    /// beyond it lines are counted and dropped, so no command can flood the journal.
    public var logLinesPerSecond: Double

    public init(
        maxRunning: Int = 8, maxRunningPerRule: Int = 2, outputLines: Int = 20, outputBytes: Int = 4096,
        killGrace: Double = 1, logLinesPerSecond: Double = 50
    ) {
        self.maxRunning = maxRunning
        self.maxRunningPerRule = maxRunningPerRule
        self.outputLines = outputLines
        self.outputBytes = outputBytes
        self.killGrace = killGrace
        self.logLinesPerSecond = logLinesPerSecond
    }

    /// Output bytes read from one launch per second at most: past this the command waits on a
    /// full pipe (it is slowed, not killed), so `yes` costs the daemon no CPU to count.
    static let drainBytesPerSecond = 4 << 20
}

/// Every launch accounted for: `started == finished + timedOut + stopped + running`, and every
/// firing of a command action is one of started, dropped or notStarted.
public struct CommandCounts: Sendable, Equatable, CustomStringConvertible {
    /// Spawned.
    public var started = 0
    /// Ended (with any status) before their timeout, their whole process group gone.
    public var finished = 0
    /// Still running (or with members of their group still running) at their timeout: the
    /// group was sent SIGTERM, then SIGKILL after the grace period.
    public var timedOut = 0
    /// Ended by `stopAll` (the daemon stopping or reloading).
    public var stopped = 0
    /// Not launched: the overall or the rule's cap was reached.
    public var dropped = 0
    /// The spawn itself failed (the program vanished since the rules were loaded).
    public var notStarted = 0
    /// Running now.
    public var running = 0
    /// Output lines logged, and lines and bytes counted and dropped over the limits.
    public var outputLinesLogged = 0
    public var outputLinesDropped = 0
    public var outputBytesDropped = 0

    public init() {}

    public var description: String {
        "started=\(started) finished=\(finished) timed_out=\(timedOut) stopped=\(stopped) dropped=\(dropped) "
            + "not_started=\(notStarted) running=\(running) output_lines_logged=\(outputLinesLogged) "
            + "output_lines_dropped=\(outputLinesDropped) output_bytes_dropped=\(outputBytesDropped)"
    }
}
