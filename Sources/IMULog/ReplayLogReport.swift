/// Why a row of a log did not become a sample.
public enum SkipReason: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Wrong field count or a field that is not a number (only skipped in lenient mode).
    case malformedRow
    /// A NaN or infinite value.
    case nonFinite
    /// A value beyond the limits in `ReplayLogOptions`.
    case outOfRange
    /// The same timestamp as the sample before.
    case duplicateTimestamp
    /// A timestamp earlier than the sample before.
    case timestampBackwards
    /// The last line has no newline and does not parse as a full row (a recording cut off).
    case truncatedLastLine

    public var description: String {
        switch self {
        case .malformedRow: "malformed"
        case .nonFinite: "NaN or infinite"
        case .outOfRange: "out of range"
        case .duplicateTimestamp: "duplicate timestamp"
        case .timestampBackwards: "timestamp going backwards"
        case .truncatedLastLine: "truncated last line"
        }
    }
}

/// What reading a log did: rows seen, samples produced, rows skipped by reason (with the first
/// occurrence of each as `file:line: why`, to go and look).
public struct ReplayLogReport: Sendable, Equatable, CustomStringConvertible {
    /// Data rows after the header (comment and blank lines not counted).
    public internal(set) var rows = 0
    public internal(set) var samples = 0
    public internal(set) var skipped: [SkipReason: Int] = [:]
    /// The first row skipped for each reason, as an error message.
    public internal(set) var firstSkipped: [SkipReason: LogError] = [:]

    public init() {}

    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    public func count(_ reason: SkipReason) -> Int { skipped[reason, default: 0] }

    mutating func skip(_ reason: SkipReason, _ why: LogError) {
        skipped[reason, default: 0] += 1
        if firstSkipped[reason] == nil { firstSkipped[reason] = why }
    }

    /// `1000 rows, 996 samples; skipped 3 NaN or infinite (first: log.csv:12: …), 1 truncated last line (…)`
    public var description: String {
        var text = "\(rows) rows, \(samples) samples"
        let parts = SkipReason.allCases.compactMap { reason -> String? in
            guard let count = skipped[reason] else { return nil }
            return "\(count) \(reason) (first: \(firstSkipped[reason]!))"
        }
        if !parts.isEmpty { text += "; skipped " + parts.joined(separator: ", ") }
        return text
    }
}
