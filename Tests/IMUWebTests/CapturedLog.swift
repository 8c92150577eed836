import Foundation
import Logging

/// A logger whose lines a test can read: level, message and metadata, as the journal gets them.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _lines: [String] = []
    var lines: [String] { lock.withLock { _lines } }

    func append(_ line: String) { lock.withLock { _lines.append(line) } }

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let suffix = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            log.append("\(event.level): \(event.message)\(suffix)")
        }
    }
}
