import Foundation
import Synchronization
import IMUDevices
import IMUEngine
import IMUFormats

/// How an `imu` run ended and what it printed.
struct IMUResult: Sendable, CustomStringConvertible {
    var arguments: [String]
    /// The exit status, or the signal's number when `signalled`.
    var status: Int32
    /// Ended by a signal instead of exiting.
    var signalled: Bool
    var stdout: String
    var stderr: String

    /// Exited by itself with status 0.
    var succeeded: Bool { !signalled && status == 0 }

    /// stdout's lines (the newline that ends the last line does not start another).
    var lines: [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    var description: String {
        "imu \(arguments.joined(separator: " ")): \(signalled ? "killed by signal" : "exit status") \(status); stderr: \(stderr)"
    }
}

/// An `imu` that did not end in time (it has been killed).
struct IMUTimedOut: Error, CustomStringConvertible {
    var arguments: [String]
    var seconds: Double
    var description: String { "imu \(arguments.joined(separator: " ")) still ran after \(seconds) s (killed)" }
}

/// A running `imu`. Its stdout and stderr are read as they come, so a full pipe never stalls it.
final class IMUProcess: @unchecked Sendable {
    let arguments: [String]
    // Only touched by init and the methods below, which a test calls from one task.
    private let process = Process()
    private let output = Mutex((stdout: Data(), stderr: Data()))
    private let readers = DispatchGroup()

    var pid: Int32 { process.processIdentifier }

    /// `journal`: standard error is told to be the journal, as systemd tells a service
    /// (JOURNAL_STREAM names the pipe's device and inode), so lines carry their priorities.
    init(_ arguments: [String], environment: [String: String] = [:], journal: Bool = false) throws {
        self.arguments = arguments
        process.executableURL = try IMUExecutable.url()
        process.arguments = arguments
        // A runtime directory of its own: an `imu run` serves its socket there, not in the shared
        // /run/imu or the user's, where concurrent tests' daemons and clients would meet.
        var environment = environment
        if environment["XDG_RUNTIME_DIR"] == nil { environment["XDG_RUNTIME_DIR"] = Self.runtimeDirectory() }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        if journal {
            var status = stat()
            fstat(stderr.fileHandleForWriting.fileDescriptor, &status)
            process.environment?["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        }
        try process.run()
        readToEnd(stdout.fileHandleForReading, isStandardError: false)
        readToEnd(stderr.fileHandleForReading, isStandardError: true)
    }

    /// Reads on a thread of its own: blocking one of Dispatch's few worker threads (as many as
    /// cores) per pipe would starve Swift concurrency's timers and other tests. Reads as the
    /// output comes, so a test can wait for the first lines.
    private func readToEnd(_ handle: FileHandle, isStandardError: Bool) {
        readers.enter()
        Thread.detachNewThread { [self] in
            while true {
                let chunk = readChunk(handle)
                if chunk.isEmpty { break }
                output.withLock { if isStandardError { $0.stderr.append(chunk) } else { $0.stdout.append(chunk) } }
            }
            readers.leave()
        }
    }

    /// Waits until standard output holds at least `lines` complete lines (false after `seconds`).
    func waitForOutput(lines: Int, within seconds: Double) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        func enough() -> Bool { output.withLock { $0.stdout.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } } >= lines }
        while clock.now < deadline {
            if enough() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        // Once more: on a loaded machine the task may resume only after the deadline, and
        // what came meanwhile counts.
        return enough()
    }

    /// Waits until standard error holds `text` (false after `seconds`).
    func waitForStandardError(containing text: String, within seconds: Double) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        func found() -> Bool { output.withLock { String(decoding: $0.stderr, as: UTF8.self).contains(text) } }
        while clock.now < deadline {
            if found() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return found()
    }

    /// Sends `signal` (SIGINT: what Ctrl-C sends) to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits at most `seconds` for the process to end and its output to close. Past that the
    /// process is killed and this throws `IMUTimedOut`.
    func finish(within seconds: Double) async throws -> IMUResult {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while process.isRunning {
            // Past the deadline, look at the kernel's word before calling it a hang: when the
            // test process's threads were all busy (long synchronous tests on two cores),
            // Foundation may not have reaped a child that ended long ago.
            if clock.now >= deadline && !Self.hasEnded(process.processIdentifier) {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw IMUTimedOut(arguments: arguments, seconds: seconds)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        await withCheckedContinuation { done in
            readers.notify(queue: .global()) { done.resume() }
        }
        let (stdout, stderr) = output.withLock { ($0.stdout, $0.stderr) }
        return IMUResult(
            arguments: arguments,
            status: process.terminationStatus,
            signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}

extension IMUProcess {
    static func runtimeDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-runtime-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    /// The process has exited (a zombie waiting for Foundation to reap it, or gone).
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // The state follows the command name in parentheses: "1234 (imu) Z …".
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}

/// Runs `imu arguments…` to its end (killed, and an error, after `seconds`).
func imu(_ arguments: String..., within seconds: Double = 30, environment: [String: String] = [:], journal: Bool = false) async throws -> IMUResult {
    try await IMUProcess(arguments, environment: environment, journal: journal).finish(within: seconds)
}

/// What a pipe has now (empty at end of file), read with read(2) and retried on EINTR:
/// Foundation's FileHandle reads stop the process when a signal (SIGCHLD from any child the
/// test process reaps) interrupts them.
func readChunk(_ handle: FileHandle) -> Data {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count >= 0 { return Data(buffer[0..<count]) }
        if errno != EINTR { return Data() }
    }
}

/// Everything until end of file, like `readDataToEndOfFile` but safe from EINTR.
func readToEndOfFile(_ handle: FileHandle) -> Data {
    var data = Data()
    while true {
        let chunk = readChunk(handle)
        if chunk.isEmpty { return data }
        data.append(chunk)
    }
}
