/// Bounds on what the TOML reader takes, checked before and while parsing so that no file can
/// make it spend time or memory out of proportion to what a configuration file needs.
///
/// The project's files (board profiles, rules, calibrations) are a few kilobytes with tables
/// two or three levels deep; the defaults leave a wide margin above that.
public struct TOMLLimits: Sendable, Equatable {
    /// The whole text, in bytes.
    public var maximumBytes: Int
    /// One line, in bytes (without its line break).
    public var maximumLineBytes: Int
    /// Tables within tables, arrays within arrays, and both mixed, counted together.
    public var maximumDepth: Int
    /// Parts of one dotted key or header (`a.b.c` has three).
    public var maximumKeyParts: Int

    public init(maximumBytes: Int = 1 << 20, maximumLineBytes: Int = 64 << 10, maximumDepth: Int = 32, maximumKeyParts: Int = 16) {
        self.maximumBytes = maximumBytes
        self.maximumLineBytes = maximumLineBytes
        self.maximumDepth = maximumDepth
        self.maximumKeyParts = maximumKeyParts
    }

    public static let configuration = TOMLLimits()
}

/// Why a text is not TOML (or is TOML past the limits), and where.
public struct TOMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var position: TOMLPosition
    public var message: String

    public var description: String { "\(position.line):\(position.column): \(message)" }
}
