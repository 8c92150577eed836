import CIMUProcess
import Foundation
import Synchronization
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu` run on a pseudo-terminal of its own, as in a terminal window: its standard input,
/// output and error are the terminal, the test types keys into it and reads what it drew, and
/// looks at the terminal's settings before and after.
final class PseudoTerminalProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let arguments: [String]
    /// The terminal's settings before `imu` started.
    let settingsBefore: termios
    // Touched only from the test's task (and `output`, under its lock, by the reader thread).
    private let master: Int32
    private let terminal: Int32
    private let pid: pid_t
    /// What the reader thread shares with the test (not `self`, whose end stops the thread).
    private final class Shared: Sendable {
        let output = Mutex(Data())
        let stopReading = Atomic<Bool>(false)
    }
    private let shared = Shared()
    private let reader = DispatchGroup()
    private var exitStatus: Int32?

    /// Starts `imu arguments…` on a new terminal of `columns` × `rows` cells.
    init(_ arguments: [String], columns: UInt16 = 80, rows: UInt16 = 24) throws {
        self.arguments = arguments
        let executable = try IMUExecutable.url().path
        var master: Int32 = -1, terminal: Int32 = -1
        var window = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &terminal, nil, nil, &window) == 0 else {
            throw Failure(description: "no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        // Neither end leaks into other processes the tests start (the child gets the terminal
        // as 0, 1 and 2 by dup2, which clears the flag on the copies).
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(terminal, F_SETFD, FD_CLOEXEC)
        self.master = master
        // The test keeps its own hold on the terminal, to read its settings after `imu` is gone.
        self.terminal = terminal
        var settings = termios()
        guard tcgetattr(terminal, &settings) == 0 else {
            throw Failure(description: "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        settingsBefore = settings

        // The child: the terminal as fds 0, 1 and 2, default signal handling, no blocked
        // signals. It is not the child's controlling terminal (that needs a new session, which
        // posix_spawn's Swift import cannot ask for): Ctrl-C typed here reaches `imu` as the
        // byte it reads in its raw mode, which is what the demo handles.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, terminal, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        // posix_spawn hands the child every descriptor not close-on-exec, the sockets NIO accepts for
        // the dashboard tests among them (all test targets share one process): a child that lives on
        // would hold a connection open after its server closed it. (Foundation's Process closes them.)
        _ = imu_process_spawn_actions_close_from(&actions, 3)
        let spawned = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(spawned)))") }
        pid = child

        reader.enter()
        Thread.detachNewThread { [shared, reader, master] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            while !shared.stopReading.load(ordering: .relaxed) {
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                if count > 0 {
                    shared.output.withLock { $0.append(contentsOf: buffer[0..<count]) }
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    break
                }
            }
            reader.leave()
        }
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        shared.stopReading.store(true, ordering: .relaxed)
        reader.wait()
        close(master)
        close(terminal)
    }

    /// What `imu` has written to the terminal so far.
    var text: String { String(decoding: shared.output.withLock { $0 }, as: UTF8.self) }

    /// Waits until the output contains `needle` (false after `seconds`).
    func waitForOutput(containing needle: String, within seconds: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if text.contains(needle) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Once more: on a loaded machine the task may resume only after the deadline, and
        // what came meanwhile counts.
        return text.contains(needle)
    }

    /// Sends `signal` to `imu` (as `kill` does).
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Makes the terminal `columns` × `rows` cells (as resizing its window does).
    func resize(columns: UInt16, rows: UInt16) {
        var window = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &window)
    }

    /// Types `keys` into the terminal.
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits at most `seconds` for `imu` to exit (killed, and an error, after that), then for
    /// the last of its output. Returns its exit status (128 + n when a signal n ended it).
    func finish(within seconds: Double) async throws -> Int32 {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                exitStatus = -1
                throw Failure(description: "imu \(arguments.joined(separator: " ")) still ran after \(seconds) s (killed); it drew:\n\(text.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        // What it wrote last is in the terminal's buffer: read until it stays empty a while.
        var length = -1
        while length != text.utf8.count {
            length = text.utf8.count
            try await Task.sleep(for: .milliseconds(200))
        }
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
    }

    /// The terminal's settings now (after `imu` has gone: what it left behind).
    var settingsNow: termios {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings
    }
}

extension termios {
    /// The modes and the control characters (not the speeds, which no program here changes).
    func sameModes(as other: termios) -> Bool {
        var a = self, b = other
        let controlsEqual = withUnsafeBytes(of: &a.c_cc) { x in withUnsafeBytes(of: &b.c_cc) { y in x.elementsEqual(y) } }
        return c_iflag == other.c_iflag && c_oflag == other.c_oflag && c_cflag == other.c_cflag && c_lflag == other.c_lflag
            && controlsEqual
    }
}
