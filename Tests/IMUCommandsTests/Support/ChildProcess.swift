import Foundation
import Synchronization
import IMUDevices
import IMUEngine
import IMUFormats

/// Runs a program to its end without blocking a thread of Swift concurrency's small pool (a
/// blocked pool starves other tests' timers): standard error is read on a thread of its own and
/// the end is awaited by polling. Standard output goes where `stdout` says (/dev/null by default).
/// Returns the exit status (128 + the signal when killed) and what was written to stderr.
func runToEnd(
    _ executable: String, _ arguments: [String], stdout: FileHandle? = nil, environment: [String: String] = [:],
    within seconds: Double = 120
) async throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout ?? FileHandle.nullDevice
    let errorPipe = Pipe()
    process.standardError = errorPipe
    let collected = Mutex<(data: Data, done: Bool)>((Data(), false))
    try process.run()
    let reader = errorPipe.fileHandleForReading
    Thread.detachNewThread {
        let data = reader.readDataToEndOfFile()
        collected.withLock { $0 = (data, true) }
    }
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Int(seconds * 1000))
    while process.isRunning || !collected.withLock({ $0.done }) {
        // Past the deadline, a child the kernel says has ended is not a hang (see IMUProcess.finish).
        if clock.now >= deadline && !(IMUProcess.hasEnded(process.processIdentifier) && collected.withLock({ $0.done })) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            struct TimedOut: Error, CustomStringConvertible {
                var description: String
            }
            throw TimedOut(description: "\(executable) \(arguments.joined(separator: " ")) still ran after \(seconds) s (killed)")
        }
        try await Task.sleep(for: .milliseconds(5))
    }
    let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    return (status, String(decoding: collected.withLock { $0.data }, as: UTF8.self))
}
