import Foundation

/// Everything stored for one chip: which chip it is, and each part of its calibration with
/// the time it was made. Parts are optional: a chip may have a gyro bias and no magnetometer
/// calibration (the MPU-6050 has no magnetometer).
///
/// On disk (`tomlText`, `CalibrationFile.parse`), one file per chip named by
/// `ChipIdentity.fileName`:
///
/// ```toml
/// version = 1
/// parts = ["gyroscope", "accelerometer", "magnetometer"]
///
/// [chip]
/// type = "LSM9DS1"
/// board = "sense-hat"
/// bus = "/dev/i2c-1"
/// address = 0x6a
///
/// [gyroscope]
/// bias-rad-s = [0.0523598775598, -1e-05, 0.004]
/// temperature-celsius = 31.25
/// calibrated-at = 2026-11-18T11:06:40Z
///
/// [accelerometer]
/// offset-g = [0.0123, -0.0407, 1e-06]
/// scale = [1.0183, 0.9871, 1.0000001]
/// calibrated-at = 2026-11-18T11:08:20Z
///
/// [magnetometer]
/// hard-iron-uT = [38.25, -14.5, 21.7]
/// soft-iron = [
///     [1.023849289453272, 0.01304905957146327, -0.00401509525275793],
///     [0.01304905957146327, 0.973660598793798, 0.021079250076979132],
///     [-0.00401509525275793, 0.021079250076979132, 1.0037738131894824],
/// ]
/// field-uT = 48.2134567890123
/// residual-percent = 0.83
/// coverage-percent = 97.2
/// accuracy = "high"
/// calibrated-at = 2026-11-18T11:10:00Z
/// ```
///
/// `parts` lists the tables present and `calibrated-at` ends each table, so a file cut short
/// anywhere is refused rather than read as a file with fewer parts.
public struct CalibrationFile: Sendable, Equatable {
    /// The format version this code writes and reads.
    public static let currentVersion = 1

    public var chip: ChipIdentity
    public var gyroscope: Stamped<GyroBiasCalibration>?
    public var accelerometer: Stamped<AccelerometerCalibration>?
    public var magnetometer: Stamped<MagnetometerCalibration>?

    public init(
        chip: ChipIdentity, gyroscope: Stamped<GyroBiasCalibration>? = nil,
        accelerometer: Stamped<AccelerometerCalibration>? = nil, magnetometer: Stamped<MagnetometerCalibration>? = nil
    ) {
        self.chip = chip
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
    }

    /// A calibration with the time it was made. Times are kept to the whole second (that is
    /// what the file stores), so a value read back equals the one written.
    public struct Stamped<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public let calibratedAt: Date

        public init(_ value: Value, calibratedAt: Date) {
            self.value = value
            self.calibratedAt = Date(timeIntervalSince1970: calibratedAt.timeIntervalSince1970.rounded(.down))
        }
    }
}
