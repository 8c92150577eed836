/// How strict the replay reader is, and where it draws the line for values no chip can produce.
public struct ReplayLogOptions: Sendable, Equatable {
    /// What a malformed row (wrong field count, a field that is not a number) does.
    public enum MalformedRows: Sendable, Equatable {
        /// Stop with the row's file:line and what was expected (the default: a damaged log
        /// is worth knowing about before anything is computed from it).
        case fail
        /// Skip it and count it in the report.
        case skip
    }

    public var malformedRows: MalformedRows
    /// Rows whose |acceleration| is above this (g) are skipped and counted.
    public var maxAcceleration: Double
    /// Rows whose |rotation rate| is above this (rad/s) are skipped and counted.
    public var maxRotationRate: Double
    /// Rows whose |magnetic field| is above this (µT) are skipped and counted.
    public var maxMagneticField: Double

    /// Limits a little beyond the widest full-scale ranges of the chips the project reads
    /// (±16 g, ±2000 °/s ≈ 35 rad/s, the LSM9DS1's ±16 gauss = 1600 µT), doubled: anything beyond
    /// is a corrupted value, not a reading.
    public init(
        malformedRows: MalformedRows = .fail, maxAcceleration: Double = 32, maxRotationRate: Double = 70,
        maxMagneticField: Double = 5000
    ) {
        self.malformedRows = malformedRows
        self.maxAcceleration = maxAcceleration
        self.maxRotationRate = maxRotationRate
        self.maxMagneticField = maxMagneticField
    }

    /// Skips malformed rows (and counts them) instead of stopping.
    public static let lenient = ReplayLogOptions(malformedRows: .skip)
}
