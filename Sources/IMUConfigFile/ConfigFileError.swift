/// Why a configuration file (a board profile, a rules file, a calibration) was refused, and
/// where: printed the way compilers print, so editors and terminals can jump to it:
/// `Boards/gy-521.toml:12:5: unknown key `adress` in [[imu]] …`.
public struct ConfigFileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The path of the file as it was given to the loader.
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole (it cannot be read).
    public var line: Int
    /// 1-based, when known.
    public var column: Int?
    /// What was wrong and what was expected instead.
    public var message: String

    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        guard line > 0 else { return "\(file): \(message)" }
        if let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file):\(line): \(message)"
    }
}
