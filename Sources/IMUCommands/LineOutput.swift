import Foundation

/// Standard output with our own buffering: lines are collected and written in blocks when the
/// output is a pipe or file (fast for CSV logs) but at least every `pipeLatency` seconds (a
/// program reading the pipe sees samples live), and line by line on a terminal.
struct LineOutput {
    static let pipeLatency = 0.1

    private var buffer: [UInt8] = []
    private let interactive = isatty(STDOUT_FILENO) != 0
    private var lastFlush = ProcessInfo.processInfo.systemUptime

    init() {
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 15 { flush() }
    }

    /// Flushes on a terminal, and on a pipe when the last flush is `pipeLatency` old.
    mutating func flushIfDue() {
        guard !buffer.isEmpty else { return }
        if interactive || ProcessInfo.processInfo.systemUptime - lastFlush >= Self.pipeLatency { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written <= 0 {
                // The reader has gone (EPIPE) or the disk is full: nothing more can be said.
                StopSignal.request()
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
        lastFlush = ProcessInfo.processInfo.systemUptime
    }
}

func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
