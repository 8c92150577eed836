/// Why a calibration file was refused (or could not be written), and where: printed the way
/// compilers print, so editors and terminals can jump to it:
/// `~/.config/imu/lsm9ds1-sim-0x6a.toml:14:1: `scale` in [accelerometer] must be …`.
public struct CalibrationFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    /// 1-based; 0 when the problem is the file as a whole (cannot be read or written).
    public var line: Int
    /// 1-based, when known.
    public var column: Int?
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
