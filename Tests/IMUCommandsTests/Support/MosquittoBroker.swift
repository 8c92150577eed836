import CIMUProcess
import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// A real Mosquitto broker (Debian's `mosquitto`) on a free loopback port, and `mosquitto_sub` as
/// an independent subscriber, for the MQTT tests. Both are stopped by `stop()`.
final class MosquittoBroker: @unchecked Sendable {
    let port: Int
    let directory: URL
    private let lock = NSLock()
    private var pid: pid_t?

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub")
    }

    /// `extra` goes into the listener's configuration (TLS, passwords). `persistent`: sessions
    /// and queued messages saved when the broker stops (SIGTERM) and loaded when it starts.
    init(extra: String = "", port: Int? = nil, persistent: Bool = false) throws {
        self.port = try port ?? Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mosquitto-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Run as root, mosquitto becomes the mosquitto user: a persistent one writes its
        // database here.
        if persistent { try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path) }
        let config = """
            listener \(self.port) 127.0.0.1
            allow_anonymous \(extra.contains("password_file") ? "false" : "true")
            persistence \(persistent)
            persistence_location \(directory.path)/
            log_dest stderr
            \(extra)
            """
        try config.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts the broker with default signal handling: a child spawned by Foundation's Process
    /// inherits the test runner's blocked or ignored signals (SIGTERM among them), and a broker
    /// that ignores SIGTERM cannot be stopped as a service manager stops it.
    func start() throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGUSR1, SIGUSR2] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let arguments = ["/usr/sbin/mosquitto", "-c", directory.appendingPathComponent("mosquitto.conf").path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        // posix_spawn hands the child every descriptor not close-on-exec, the sockets NIO accepts for
        // the dashboard tests among them (all test targets share one process): a child that lives on
        // would hold a connection open after its server closed it. (Foundation's Process closes them.)
        _ = imu_process_spawn_actions_close_from(&actions, 3)
        let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw Failure("cannot start mosquitto: \(String(cString: strerror(spawned)))") }
        lock.withLock { pid = child }
        // Ready when it accepts a connection (at most 10 s on a loaded machine).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.accepts(port: port) { return }
            usleep(20_000)
        }
        throw Failure("mosquitto did not listen on \(port)")
    }

    /// Kills the broker (SIGKILL: as a crash would) and waits for it.
    func kill() { end(SIGKILL, within: 10) }

    /// Stops the broker as `systemctl restart` would (SIGTERM: a persistent one saves its
    /// sessions) and waits for it (SIGKILL after 10 s).
    func terminate() {
        end(SIGTERM, within: 10)
        end(SIGKILL, within: 10)
    }

    private func end(_ signal: Int32, within seconds: Double) {
        guard let child = lock.withLock({ pid }) else { return }
        Foundation.kill(child, signal)
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while Date() < deadline {
            let reaped = waitpid(child, &status, WNOHANG)
            if reaped == child || (reaped < 0 && errno == ECHILD) {
                lock.withLock { pid = nil }
                return
            }
            usleep(5_000)
        }
    }

    func signal(_ s: Int32) {
        if let child = lock.withLock({ pid }) { Foundation.kill(child, s) }
    }

    func stop() {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// `mosquitto_sub` on every topic: each message as (retained, topic, payload), in arrival order.
final class MQTTSubscriber: @unchecked Sendable {
    struct Message: Equatable { var retained: Bool; var topic: String; var payload: String }
    private let process = Process()
    private let output = Pipe()
    private let lock = NSLock()
    private var buffer = Data()

    init(port: Int, topic: String = "#", extra: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        // One line per message: retain flag, topic, payload (payloads here have no newlines or tabs).
        process.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-F", "%r\t%t\t%p", "-q", "1"] + extra
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // A thread of its own (as IMUProcess): a handler on Dispatch's few workers would starve
        // Swift concurrency's timers.
        let handle = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                buffer.append(chunk)
                lock.unlock()
            }
        }
    }

    var messages: [Message] {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: buffer, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            return Message(retained: parts[0] == "1", topic: String(parts[1]), payload: parts.count > 2 ? String(parts[2]) : "")
        }
    }

    /// Waits (real time, at most `seconds`) until `condition` holds for the messages so far.
    func wait(within seconds: Double, until condition: ([Message]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(messages) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(messages)
    }

    /// SIGKILL: mosquitto_sub started from a test runner's thread does not always act on SIGTERM.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<400 where process.isRunning { usleep(5_000) }
    }

    deinit { stop() }
}
