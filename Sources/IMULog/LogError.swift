/// A log that cannot be read, said the way a compiler says it: `file:line: what was expected`.
public struct LogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's name as the user gave it (or a name the caller chose for text).
    public var file: String
    /// 1-based line number; 0 for the file as a whole (it cannot be opened, for instance).
    public var line: Int
    /// The column the problem is in, when there is one.
    public var column: String?
    public var message: String

    public init(file: String, line: Int, column: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `log.csv:12: column acc_y: expected a number, got "abc"`
    public var description: String {
        (line > 0 ? "\(file):\(line): " : "\(file): ") + (column.map { "column \($0): " } ?? "") + message
    }
}
