import Foundation

/// Standard output with our own buffering: lines are collected and written in blocks when the
/// output is a pipe or file (fast for CSV logs), and line by line on a terminal (live).
struct LineOutput {
    private var buffer: [UInt8] = []
    private let interactive = isatty(STDOUT_FILENO) != 0

    init() {
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 15 { flush() }
    }

    mutating func flushIfInteractive() {
        if interactive { flush() }
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
    }
}

func printToStandardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
