import Foundation
import Logging

/// swift-log to standard error the way journald reads it: each line starts with the syslog
/// priority in angle brackets (`<6>` info, `<4>` warning, `<3>` error), which systemd turns into
/// the journal's priority, followed by the message and its metadata as key=value.
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

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "<\(Self.priority(event.level))>\(event.message)" + (fields.isEmpty ? "" : " " + fields) + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
