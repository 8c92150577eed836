import IMUConfigFile

/// Why a board file was refused, and where (`Boards/gy-521.toml:12:5: …`).
public typealias BoardProfileError = ConfigFileError
