import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// Lines to a file descriptor with our own buffering: collected and written in blocks (fast for
/// CSV logs) but at least every `latency` seconds (a program reading the pipe sees samples
/// live), and line by line on a terminal. A durable output (a recording) is also fsync'ed at
/// each of those flushes, so a power cut loses at most the last `latency` seconds, and whole
/// lines only ever reach the file, bar the one a crash interrupts (which log readers skip).
///
/// A failed write is never silent: the reader going away (EPIPE: `imu read | head`) is a normal
/// end, anything else (a full disk, EIO, a file-size limit) stops the loops and `finish()`
/// throws, naming the output and the cause. A regular file is then cut back to its last
/// complete line, so what was written before stays a valid log.
struct LineOutput {
    private let descriptor: Int32
    /// The output in messages: a file's path, or "standard output".
    let name: String
    private let latency: Double
    private let durable: Bool
    private var buffer: [UInt8] = []
    private let interactive: Bool
    /// A regular file: cut back to its last complete line when a write fails.
    private let isRegularFile: Bool
    private var lastFlush = ProcessInfo.processInfo.systemUptime
    /// Complete lines that reached the output.
    private(set) var linesWritten = 0
    /// Bytes written, and where the last complete line among them ends.
    private var bytesWritten = 0
    private var completeBytes = 0
    /// The errno of the write that failed (never EPIPE); nothing is written after it.
    private(set) var failure: Int32?
    /// The reader of a pipe went away: a normal end, nothing more is written.
    private(set) var readerGone = false

    init(descriptor: Int32 = STDOUT_FILENO, name: String = "standard output", latency: Double = 0.1, durable: Bool = false) {
        self.descriptor = descriptor
        self.name = name
        self.latency = latency
        self.durable = durable
        interactive = isatty(descriptor) != 0
        var status = stat()
        isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        buffer.reserveCapacity(1 << 16)
    }

    var isClosed: Bool { failure != nil || readerGone }

    mutating func write(_ line: String) {
        if isClosed { return }
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
        defer {
            buffer.removeAll(keepingCapacity: true)
            lastFlush = ProcessInfo.processInfo.systemUptime
        }
        if isClosed || buffer.isEmpty { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 {
                // write(2) returns 0 for a non-empty buffer only on devices that are full.
                fail(written == 0 ? ENOSPC : errno, wrote: offset)
                return
            }
            offset += written
        }
        account(wrote: offset)
        if durable, fsync(descriptor) != 0, errno != EINVAL {
            // The kernel could not put the data on disk (EIO, ENOSPC on delayed allocation):
            // what was written is in doubt, and saying nothing would hide it.
            failure = errno
            StopSignal.request()
        }
    }

    /// Counts the lines among the first `count` bytes of the buffer, which reached the output.
    private mutating func account(wrote count: Int) {
        guard count > 0 else { return }
        let newlines = buffer[..<count].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        linesWritten += newlines
        if let last = buffer[..<count].lastIndex(of: 0x0A) { completeBytes = bytesWritten + last + 1 }
        bytesWritten += count
    }

    private mutating func fail(_ code: Int32, wrote count: Int) {
        account(wrote: count)
        StopSignal.request()
        if code == EPIPE {
            readerGone = true
            return
        }
        failure = code
        // A regular file is cut back to its last complete line (from where this output began),
        // so a reader never meets half a line where the disk filled.
        if isRegularFile, bytesWritten > completeBytes {
            let end = lseek(descriptor, 0, SEEK_CUR)
            if end >= 0 { _ = ftruncate(descriptor, end - off_t(bytesWritten - completeBytes)) }
        }
    }

    /// Flushes what is left; throws if a write failed (naming the output and the cause), with
    /// `kept`, when given and the output is a file, saying what it holds. A reader that went
    /// away is no error.
    mutating func finish(kept: ((_ lines: Int) -> String)? = nil) throws(CommandError) {
        flush()
        guard let failure else { return }
        let cause = String(cString: strerror(failure))
        throw CommandError("cannot write \(name): \(cause)" + (isRegularFile ? kept.map { "; " + $0(linesWritten) } ?? "" : ""))
    }
}

func printToStandardError(_ text: String) {
    writeToStandardError(text + "\n")
}

/// Writes `text` to standard error whole (short writes and EINTR retried). A standard error that
/// cannot take it (its reader went away: a pipe closed, journald restarted under a service; a
/// full disk) loses the text and nothing else: the daemon and the commands run on, where
/// `FileHandle.write` would have stopped the process. Returns false when the text was lost.
@discardableResult
func writeToStandardError(_ text: String) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if written > 0 {
            bytes = bytes.dropFirst(written)
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}
