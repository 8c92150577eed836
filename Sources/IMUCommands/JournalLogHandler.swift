import Foundation
import Logging
import IMUDevices
import IMUEngine
import IMUFormats

/// swift-log to standard error. When standard error is the journal (systemd says so in
/// JOURNAL_STREAM), each line starts with the syslog priority in angle brackets (`<6>` info,
/// `<4>` warning, `<3>` error), which journald turns into the entry's priority; on a terminal or
/// a pipe, plain text with "warning: " or "error: " before what needs attention. Then the message
/// and its metadata as key=value. Every text is escaped (`escaped`), so nothing that comes from
/// a file, an event or a command (a rule name with a newline in it) can end the line and start a
/// forged one.
struct JournalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// `text` on one line: backslash, control characters (newline, carriage return, NUL, …, DEL)
    /// and the Unicode line breaks (NEL, U+2028, U+2029) written as C-style escapes (`\n`,
    /// `\\`, `\x1b`, `\u{2028}`).
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let hex = String(scalar.value, radix: 16)
                out += scalar.value < 0x80 ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7f || scalar == "\\" || scalar.value == 0x85
            || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    func log(event: LogEvent) {
        let line = Self.line(
            level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { _, new in new },
            journal: Self.standardErrorIsJournal)
        writeToStandardError(line)
    }

    /// One line: the priority (journal) or a word for warnings and errors (plain), the escaped
    /// message, escaped key=value fields, newline.
    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata, journal: Bool = true) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { escaped($0.key) + "=" + escaped("\($0.value)") }
            .joined(separator: " ")
        let lead: String
        if journal {
            lead = "<\(priority(level))>"
        } else {
            switch level {
            case .warning: lead = "warning: "
            case .error, .critical: lead = "error: "
            default: lead = ""
            }
        }
        return lead + escaped(message) + (fields.isEmpty ? "" : " " + fields) + "\n"
    }

    /// Whether standard error is the journal: systemd sets JOURNAL_STREAM to the device and inode
    /// ("DEVICE:INODE") of the stream it connected, and a redirection changes them.
    static let standardErrorIsJournal = isJournal(ProcessInfo.processInfo.environment["JOURNAL_STREAM"], descriptor: STDERR_FILENO)

    static func isJournal(_ journalStream: String?, descriptor: Int32) -> Bool {
        guard let parts = journalStream?.split(separator: ":"), parts.count == 2,
              let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
