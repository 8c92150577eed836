import CIMUProcess
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs command actions the way a service that runs for months can afford: at most
/// `limits.maxRunning` at once (and `maxRunningPerRule` per rule), each in a process group of
/// its own (posix_spawn with POSIX_SPAWN_SETPGROUP), the whole group sent SIGTERM at the timeout
/// and SIGKILL a grace period later, every member reaped as it exits, output read through a
/// pipe into bounded, rate-limited log lines.
///
/// One thread watches all launches: it sleeps in poll(2) on the output pipes, a pidfd per
/// program (its exit wakes the thread at once, so it is reaped within microseconds) and an
/// eventfd, and wakes every `tick` while anything runs, to reap what else of the group exited,
/// read and signal. The process becomes a child
/// subreaper (PR_SET_CHILD_SUBREAPER), so a command that forks and exits leaves its children to
/// us, still in its group: they are reaped here, and killed with the group at the timeout.
public final class CommandSupervisor: @unchecked Sendable {
    // @unchecked: every mutable field is touched only with `lock` held.

    /// How a launch ended.
    public enum End: String, Sendable, Equatable {
        /// The program and everything it started ended before the timeout.
        case finished
        /// The group was signalled at the timeout.
        case timedOut = "timed out"
        /// The group was signalled by `stopAll` (the daemon stopping or reloading).
        case stopped
    }

    public struct Outcome: Sendable, Equatable {
        public var rule: String
        public var arguments: [String]
        public var pid: Int32
        /// The program's exit status (0…255), or minus the signal that ended it.
        public var status: Int32
        public var end: End
        /// Output lines and bytes past the limits, counted and not logged.
        public var outputLinesDropped: Int
        public var outputBytesDropped: Int
        /// Members of the group still there after SIGKILL and a grace period (not ours to reap:
        /// they left for another parent); nonzero only in that odd case.
        public var abandoned: Bool

        public var timedOut: Bool { end == .timedOut }
    }

    /// Why a launch did not happen.
    public struct LaunchError: Error, CustomStringConvertible, Sendable {
        public var rule: String
        public var reason: String
        /// Over a cap (counted as dropped) rather than a spawn failure.
        public var dropped: Bool
        public var description: String { reason }
    }

    public var limits: CommandLimits {
        get { lock.withLock { _limits } }
        set { lock.withLock { _limits = newValue } }
    }

    /// Told every output line that is logged (rule, pid, line), on the supervisor's thread.
    public var onOutput: (@Sendable (String, Int32, String) -> Void)? {
        get { lock.withLock { _onOutput } }
        set { lock.withLock { _onOutput = newValue } }
    }

    public var counts: CommandCounts {
        lock.withLock {
            var counts = _counts
            counts.running = launches.count
            return counts
        }
    }

    /// How often the thread looks at running commands (s): reaping, timeouts and output.
    static let tick = 0.02
    /// After signalling a group the thread looks every ms for this long (ns): the members die
    /// within it, and those that were orphans (ours as subreaper, no pidfd) are reaped at once
    /// instead of staying zombies until the next tick.
    static let quickLookNanoseconds: Int64 = 100_000_000

    private let lock = NSCondition()
    private var _limits: CommandLimits
    private var _onOutput: (@Sendable (String, Int32, String) -> Void)?
    private var _counts = CommandCounts()
    private var launches: [Launch] = []
    /// Ended launches whose `onExit` is running (lock held to change it).
    private var exitsBeingTold = 0
    private var logTokens: Double
    private var logTokensAt = monotonicNanoseconds()
    private var closed = false
    private var wake: Int32 = -1
    /// Until when the thread looks every ms (ns; see `quickLookNanoseconds`).
    private var quickLookUntil: Int64 = 0

    /// Nothing starts until the first launch (no thread, no descriptor for rules without
    /// commands).
    public init(limits: CommandLimits = CommandLimits()) {
        _limits = limits
        logTokens = 2 * limits.logLinesPerSecond
    }

    /// With `lock` held, before the first launch: the eventfd, the subreaper flag, the thread.
    private func startWatching() {
        guard wake < 0 else { return }
        wake = imu_process_wake_fd()
        // Orphans of our commands come to us (still in their group) instead of PID 1, so they are
        // reaped here and killed with their group.
        _ = imu_process_become_subreaper()
        let thread = Thread { [state = Unmanaged.passRetained(self)] in
            state.takeUnretainedValue().serve()
            state.release()
        }
        thread.name = "imu commands"
        thread.start()
    }

    /// Ends the watching thread once nothing runs (commands still running are stopped first).
    public func close() {
        stopAll()
        lock.withLock {
            closed = true
            signalWake()
        }
    }

    /// Starts `arguments` (argv[0] an absolute path, checked at load) for `rule`, in its own
    /// process group, with exactly `environment`. Throws when a cap is reached (counted as
    /// dropped) or the spawn fails; `onExit` is told how it ended, on the supervisor's thread.
    public func launch(
        _ arguments: [String], rule: String, timeout: Double, environment: [String: String],
        maxRunningForRule: Int? = nil, onExit: (@Sendable (Outcome) -> Void)? = nil
    ) throws(LaunchError) {
        lock.lock()
        defer { lock.unlock() }
        let perRule = maxRunningForRule ?? _limits.maxRunningPerRule
        if launches.count >= _limits.maxRunning {
            _counts.dropped += 1
            throw LaunchError(rule: rule, reason: "\(launches.count) commands are running already (max-running-commands = \(_limits.maxRunning)); this launch is dropped (\(_counts.dropped) so far)", dropped: true)
        }
        let mine = launches.reduce(0) { $0 + ($1.rule == rule ? 1 : 0) }
        if mine >= perRule {
            _counts.dropped += 1
            throw LaunchError(rule: rule, reason: "\(mine) commands of this rule are running already (its max-running-commands = \(perRule)); this launch is dropped (\(_counts.dropped) so far)", dropped: true)
        }
        startWatching()
        var pipeEnds: [Int32] = [-1, -1]
        let made = imu_process_output_pipe(&pipeEnds)
        guard made == 0 else {
            _counts.notStarted += 1
            throw LaunchError(rule: rule, reason: "cannot make a pipe for \(arguments[0])'s output: \(String(cString: strerror(-made)))", dropped: false)
        }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        let spawned = Self.spawn(arguments, environment: environment, output: writeEnd)
        Glibc.close(writeEnd)
        let pid: pid_t
        switch spawned {
        case .success(let child): pid = child
        case .failure(let code):
            Glibc.close(readEnd)
            _counts.notStarted += 1
            let why = code == ENOENT ? "is not there any more (it was when the rules were loaded)" : "cannot be started: \(String(cString: strerror(code)))"
            throw LaunchError(rule: rule, reason: "\(arguments[0]) \(why)", dropped: false)
        }
        let now = Self.monotonicNanoseconds()
        launches.append(Launch(
            rule: rule, arguments: arguments, pid: pid, pidfd: imu_process_pidfd_open(pid), output: readEnd, started: now,
            deadline: now + Int64(timeout * 1e9), drainAt: now, onExit: onExit))
        _counts.started += 1
        signalWake()
    }

    /// Sends SIGTERM to every running command's group, SIGKILL after the grace period, and
    /// returns once all are reaped (or given up after another grace period).
    public func stopAll() {
        lock.lock()
        let now = Self.monotonicNanoseconds()
        for launch in launches where launch.termAt == nil {
            launch.end = .stopped
            launch.termAt = now
            kill(-launch.pid, SIGTERM)
            quickLookUntil = now + Self.quickLookNanoseconds
        }
        let limit = Date().addingTimeInterval(2 * _limits.killGrace + 1)
        signalWake()
        while (!launches.isEmpty || exitsBeingTold > 0) && Date() < limit {
            _ = lock.wait(until: min(limit, Date().addingTimeInterval(Self.tick)))
        }
        lock.unlock()
    }

    // MARK: Spawning

    private enum Spawned { case success(pid_t), failure(Int32) }

    /// posix_spawn through `imu_process_spawn` (its header says what the child gets).
    private static func spawn(_ arguments: [String], environment: [String: String], output: Int32) -> Spawned {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = imu_process_spawn(&pid, arguments[0], argv, envp, output)
        return code == 0 ? .success(pid) : .failure(-code)
    }

    // MARK: The watching thread

    private func signalWake() {
        guard wake >= 0 else { return }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let timeout: Int32
            lock.lock()
            if closed && launches.isEmpty {
                Glibc.close(wake)
                wake = -1
                lock.unlock()
                return
            }
            let now = Self.monotonicNanoseconds()
            for launch in launches {
                if launch.output >= 0 && launch.drainTokens(at: now) >= 1 {
                    descriptors.append(pollfd(fd: launch.output, events: Int16(POLLIN), revents: 0))
                }
                if launch.pidfd >= 0 { descriptors.append(pollfd(fd: launch.pidfd, events: Int16(POLLIN), revents: 0)) }
            }
            timeout = launches.isEmpty ? -1 : now < quickLookUntil ? 1 : Int32(Self.tick * 1000)
            lock.unlock()
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            var drained: UInt64 = 0
            _ = Glibc.read(wake, &drained, 8)
            look(buffer: &buffer)
        }
    }

    /// One look at every launch: read output, reap, signal at deadlines, finish the ended.
    private func look(buffer: inout [UInt8]) {
        var lines: [(String, Int32, String)] = []
        var ended: [(Outcome, (@Sendable (Outcome) -> Void)?)] = []
        lock.lock()
        let now = Self.monotonicNanoseconds()
        let limits = _limits
        logTokens = min(2 * limits.logLinesPerSecond, logTokens + limits.logLinesPerSecond * Double(now - logTokensAt) / 1e9)
        logTokensAt = now
        var index = 0
        while index < launches.count {
            let launch = launches[index]
            read(launch, buffer: &buffer, now: now, limits: limits, into: &lines)
            let groupAlive = reap(launch)
            if launch.leaderStatus != nil && !groupAlive {
                // What it wrote just before exiting (up to 1 MiB more) is logged or counted too.
                for _ in 0..<16 where read(launch, buffer: &buffer, now: now, limits: limits, budget: buffer.count, into: &lines) > 0 {}
                finish(launch, into: &lines)
                ended.append((outcome(launch), launch.onExit))
                launches.remove(at: index)
                continue
            }
            signal(launch, now: now, grace: Int64(limits.killGrace * 1e9))
            if let killAt = launch.killAt, now - killAt >= Int64(limits.killGrace * 1e9) {
                // SIGKILL cannot be ignored: what is left is no longer ours (moved to another
                // parent, or a zombie of a parent that does not reap). Stop watching it.
                launch.abandoned = true
                finish(launch, into: &lines)
                ended.append((outcome(launch), launch.onExit))
                launches.remove(at: index)
                continue
            }
            index += 1
        }
        let onOutput = _onOutput
        // Outcomes being told keep `stopAll` waiting: the daemon must not exit between a
        // launch's removal and the line that says how it ended.
        exitsBeingTold += ended.count
        lock.unlock()
        if let onOutput { for (rule, pid, line) in lines { onOutput(rule, pid, line) } }
        for (outcome, onExit) in ended { onExit?(outcome) }
        if !ended.isEmpty {
            lock.lock()
            exitsBeingTold -= ended.count
            lock.broadcast()
            lock.unlock()
        }
    }

    /// Reads what the pipe has (up to the launch's drain budget, or `budget`) into lines;
    /// returns the bytes read.
    @discardableResult
    private func read(
        _ launch: Launch, buffer: inout [UInt8], now: Int64, limits: CommandLimits, budget: Int? = nil,
        into lines: inout [(String, Int32, String)]
    ) -> Int {
        guard launch.output >= 0 else { return 0 }
        let budget = budget ?? Int(launch.drainTokens(at: now))
        guard budget >= 1 else { return 0 }
        let descriptor = launch.output
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min(budget, $0.count)) }
        if count == 0 {
            Glibc.close(launch.output)
            launch.output = -1
            return 0
        }
        guard count > 0 else { return 0 }  // EAGAIN: nothing yet
        launch.spend(count, at: now)
        for byte in buffer[0..<count] {
            if byte == UInt8(ascii: "\n") {
                emit(launch, limits: limits, into: &lines)
            } else if launch.partial.count < limits.outputBytes - launch.bytesKept {
                launch.partial.append(byte)
            } else {
                launch.bytesDropped += 1
                launch.partialCut = true
            }
        }
        return count
    }

    /// A complete line of output: logged while the launch's and the log's budgets allow.
    private func emit(_ launch: Launch, limits: CommandLimits, into lines: inout [(String, Int32, String)]) {
        defer {
            launch.partial.removeAll(keepingCapacity: true)
            launch.partialCut = false
        }
        if launch.partial.isEmpty && launch.partialCut {  // nothing of it fitted the byte budget
            launch.linesDropped += 1
            return
        }
        if launch.linesKept < limits.outputLines && launch.bytesKept < limits.outputBytes && logTokens >= 1 {
            logTokens -= 1
            launch.linesKept += 1
            launch.bytesKept += launch.partial.count + 1
            _counts.outputLinesLogged += 1
            lines.append((launch.rule, launch.pid, String(decoding: launch.partial, as: UTF8.self) + (launch.partialCut ? "…" : "")))
        } else {
            launch.linesDropped += 1
            launch.bytesDropped += launch.partial.count + 1
        }
    }

    /// Reaps whatever of the launch's group has exited; true while any of it is still there.
    private func reap(_ launch: Launch) -> Bool {
        while true {
            var status: Int32 = 0
            let pid = waitpid(-launch.pid, &status, WNOHANG)
            if pid == launch.pid {
                launch.leaderStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
                launch.closePidfd()  // it stays readable once the program has exited
                continue
            }
            if pid > 0 { continue }  // a member that forked off the program, reaped
            if pid == 0 { return true }
            if errno == EINTR { continue }
            // No child of ours left in the group; anyone else in it (not reparented to us)?
            return kill(-launch.pid, 0) == 0
        }
    }

    /// SIGTERM to the group at the deadline, SIGKILL a grace period later.
    private func signal(_ launch: Launch, now: Int64, grace: Int64) {
        if launch.termAt == nil && now >= launch.deadline {
            launch.end = .timedOut
            launch.termAt = now
            kill(-launch.pid, SIGTERM)
            quickLookUntil = now + Self.quickLookNanoseconds
        }
        if let termAt = launch.termAt, launch.killAt == nil, now - termAt >= grace {
            launch.killAt = now
            kill(-launch.pid, SIGKILL)
            quickLookUntil = now + Self.quickLookNanoseconds
        }
    }

    private func finish(_ launch: Launch, into lines: inout [(String, Int32, String)]) {
        launch.closePidfd()
        if launch.output >= 0 {
            Glibc.close(launch.output)
            launch.output = -1
        }
        if !launch.partial.isEmpty || launch.partialCut { emit(launch, limits: _limits, into: &lines) }
        switch launch.end {
        case .finished: _counts.finished += 1
        case .timedOut: _counts.timedOut += 1
        case .stopped: _counts.stopped += 1
        }
        _counts.outputLinesDropped += launch.linesDropped
        _counts.outputBytesDropped += launch.bytesDropped
    }

    private func outcome(_ launch: Launch) -> Outcome {
        Outcome(
            rule: launch.rule, arguments: launch.arguments, pid: launch.pid, status: launch.leaderStatus ?? -SIGKILL,
            end: launch.end, outputLinesDropped: launch.linesDropped, outputBytesDropped: launch.bytesDropped,
            abandoned: launch.abandoned)
    }

    static func monotonicNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// One running command and what is known of it.
private final class Launch {
    let rule: String
    let arguments: [String]
    /// The program's pid, which is also its process group's id.
    let pid: pid_t
    /// Readable when the program exits (-1: closed, or the kernel has no pidfd_open).
    private(set) var pidfd: Int32
    /// The read end of its output pipe (-1 once at end of file or closed).
    var output: Int32
    let started: Int64
    let deadline: Int64
    var termAt: Int64?
    var killAt: Int64?
    var end = CommandSupervisor.End.finished
    var leaderStatus: Int32?
    var abandoned = false
    let onExit: (@Sendable (CommandSupervisor.Outcome) -> Void)?

    var partial: [UInt8] = []
    var partialCut = false
    var linesKept = 0, bytesKept = 0, linesDropped = 0, bytesDropped = 0
    /// Bytes it may still have read (a token bucket of `drainBytesPerSecond`, 64 KiB deep).
    private var tokens = 65536.0
    private var tokensAt: Int64

    init(rule: String, arguments: [String], pid: pid_t, pidfd: Int32, output: Int32, started: Int64, deadline: Int64, drainAt: Int64,
         onExit: (@Sendable (CommandSupervisor.Outcome) -> Void)?) {
        self.rule = rule
        self.arguments = arguments
        self.pid = pid
        self.pidfd = pidfd >= 0 ? pidfd : -1
        self.output = output
        self.started = started
        self.deadline = deadline
        self.tokensAt = drainAt
        self.onExit = onExit
    }

    func drainTokens(at now: Int64) -> Double {
        tokens = min(65536, tokens + Double(CommandLimits.drainBytesPerSecond) * Double(now - tokensAt) / 1e9)
        tokensAt = now
        return tokens
    }

    func spend(_ bytes: Int, at now: Int64) { tokens -= Double(bytes) }

    func closePidfd() {
        if pidfd >= 0 { close(pidfd) }
        pidfd = -1
    }
}
