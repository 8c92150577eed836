import Foundation

/// Lines to a file descriptor with our own buffering: collected and written in blocks (fast for
/// CSV logs) but at least every `latency` seconds (a program reading the pipe sees samples
/// live), and line by line on a terminal. A durable output (a recording) is also fsync'ed at
/// each of those flushes, so a power cut loses at most the last `latency` seconds, and whole
/// lines only ever reach the file, bar the one a crash interrupts (which log readers skip).
struct LineOutput {
    private let descriptor: Int32
    private let latency: Double
    private let durable: Bool
    private var buffer: [UInt8] = []
    private let interactive: Bool
    private var lastFlush = ProcessInfo.processInfo.systemUptime

    init(descriptor: Int32 = STDOUT_FILENO, latency: Double = 0.1, durable: Bool = false) {
        self.descriptor = descriptor
        self.latency = latency
        self.durable = durable
        interactive = isatty(descriptor) != 0
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 15 { flush() }
    }

    /// Flushes on a terminal, and elsewhere when the last flush is `latency` old.
    mutating func flushIfDue() {
        guard !buffer.isEmpty else { return }
        if interactive || ProcessInfo.processInfo.systemUptime - lastFlush >= latency { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 {
                // The reader has gone (EPIPE) or the disk is full: nothing more can be said.
                StopSignal.request()
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
        if durable { fsync(descriptor) }
        lastFlush = ProcessInfo.processInfo.systemUptime
    }
}

func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
