/// A parsed TOML 1.0 document's values. Every table remembers where each of its keys and its
/// header were written, so a checker that refuses a value can point at its line and column.
///
/// The tree is immutable once parsed; tables are shared references under value semantics.
public indirect enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case dateTime(TOMLDateTime)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The kind of a value, for messages and checks.
    public enum Kind: Sendable, Equatable {
        case string, int, double, bool, dateTime, array, table
    }

    public var type: Kind {
        switch self {
        case .string: .string
        case .integer: .int
        case .float: .double
        case .boolean: .bool
        case .dateTime: .dateTime
        case .array: .array
        case .table: .table
        }
    }

    public var string: String? { if case .string(let s) = self { s } else { nil } }
    public var int: Int? { if case .integer(let i) = self { i } else { nil } }
    /// A float only (an integer is not silently widened; callers that take both say so).
    public var double: Double? { if case .float(let d) = self { d } else { nil } }
    public var bool: Bool? { if case .boolean(let b) = self { b } else { nil } }
    public var dateTime: TOMLDateTime? { if case .dateTime(let d) = self { d } else { nil } }
    public var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }
    public var table: TOMLTable? { if case .table(let t) = self { t } else { nil } }
}

/// A line and column in a TOML text, both 1-based; columns count Unicode scalars.
public struct TOMLPosition: Sendable, Equatable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: TOMLPosition, b: TOMLPosition) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// A TOML table: its keys in the order they were written, their values and positions.
public struct TOMLTable: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        var value: TOMLValue
        var position: TOMLPosition
    }

    /// Keys in file order.
    public let keys: [String]
    private let entries: [String: Entry]
    /// Where the table was opened: its `[header]`, the `{` of an inline table, or the first key
    /// that created it (dotted keys, a header's parent); line 1, column 1 for the root.
    public let position: TOMLPosition

    init(keys: [String], entries: [String: Entry], position: TOMLPosition) {
        self.keys = keys
        self.entries = entries
        self.position = position
    }

    public subscript(key: String) -> TOMLValue? { entries[key]?.value }

    /// Where `key` was written in this table (the first character of the key).
    public func position(of key: String) -> TOMLPosition? { entries[key]?.position }

    public var isEmpty: Bool { keys.isEmpty }
}

/// A TOML date, time, local date-time or offset date-time, as written (RFC 3339 with TOML's
/// relaxations: a space may separate date and time; fractional seconds of any length).
public struct TOMLDateTime: Sendable, Equatable {
    public struct Date: Sendable, Equatable {
        public var year: Int, month: Int, day: Int
    }
    public struct Time: Sendable, Equatable {
        public var hour: Int, minute: Int, second: Int
        /// The fraction of the second, in nanoseconds (digits past the ninth are dropped).
        public var nanosecond: Int
    }

    public var date: Date?
    public var time: Time?
    /// Minutes east of UTC (`Z` is 0); nil for local dates and times.
    public var offsetMinutes: Int?
}
