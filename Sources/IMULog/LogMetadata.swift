/// The `#` lines before a log's header: `# key: value` entries (`# chip: MPU-6050`,
/// `# rate_hz: 100.000`) in file order, and every comment line as written.
public struct LogMetadata: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
    }

    public private(set) var entries: [Entry] = []
    /// Each `#` line without its `#` and surrounding spaces.
    public private(set) var comments: [String] = []

    public init() {}

    /// The first value written for `key` (keys compare case-insensitively).
    public subscript(key: String) -> String? {
        let key = key.lowercased()
        return entries.first { $0.key == key }?.value
    }

    public var chip: String? { self["chip"] }
    public var board: String? { self["board"] }
    public var bus: String? { self["bus"] }
    /// `# rate_hz:` as a number, nil when absent or not a number.
    public var rateHz: Double? { self["rate_hz"].flatMap { Double($0) } }

    /// Takes one line that starts with `#`.
    mutating func add(commentLine line: String) {
        let text = String(Fields.trimmed(line.dropFirst()))
        comments.append(text)
        guard let colon = text.firstIndex(of: ":") else { return }
        let key = Fields.trimmed(text[..<colon]).lowercased()
        let value = Fields.trimmed(text[text.index(after: colon)...])
        if !key.isEmpty { entries.append(Entry(key: key, value: String(value))) }
    }
}
