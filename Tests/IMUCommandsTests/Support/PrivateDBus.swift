import Foundation
import Synchronization

/// A private D-Bus daemon (Debian's `dbus-daemon`) on a socket in a temporary directory, its
/// address for DBUS_SYSTEM_BUS_ADDRESS: the bus the desktop's clients would use, for one test.
/// Everyone may own and call anything on it; the policy the service installs is checked apart.
final class PrivateDBus: @unchecked Sendable {
    let directory: URL
    let address: String
    private let process = Process()

    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("dbus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_destination="*"/>
                <allow receive_sender="*"/>
              </policy>
            </busconfig>
            """
        let file = directory.appendingPathComponent("bus.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(file.path)", "--nofork", "--nopidfile"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: socket) { return }
            usleep(20_000)
        }
        stop()
        throw Failure(description: "dbus-daemon did not listen on \(socket)")
    }

    func stop() {
        let pid = process.processIdentifier
        if pid > 0, kill(pid, 0) == 0 {
            // SIGKILL: children of the test process inherit its blocked signals, SIGTERM among them.
            kill(pid, SIGKILL)
            // Gone when the kernel says so (Foundation may reap it late on a busy test process).
            for _ in 0..<500 where !PrivateDBus.hasEnded(pid) { usleep(10_000) }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    deinit { stop() }

    struct Failure: Error, CustomStringConvertible { var description: String }
}

/// A program other than `imu` whose output a test reads as it comes (line-buffered through
/// `stdbuf`, since GLib's g_print buffers a pipe until exit).
final class PeerProcess: @unchecked Sendable {
    private let process = Process()
    private let output = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ arguments: [String], environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", "-eL"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = readChunk(handle)
                if chunk.isEmpty { break }
                output.withLock { $0.append(chunk) }
            }
            done.signal()
        }
    }

    var text: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits (at most `seconds`) until the output satisfies `condition`.
    func wait(within seconds: Double, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(text) { return true }
            usleep(20_000)
        }
        return condition(text)
    }

    /// SIGKILL (children of the test process inherit its blocked signals, SIGTERM among them;
    /// the output is line-buffered, so nothing printed is lost), then the rest of its output
    /// (the pipe closes when it has gone).
    func stop() -> String {
        kill(process.processIdentifier, SIGKILL)
        _ = done.wait(timeout: .now() + 10)
        return text
    }
}
