import Foundation

/// Everything stored for one chip: which chip it is, and each part of its calibration with
/// the time it was made. Parts are optional: a chip may have a gyro bias and no magnetometer
/// calibration (the MPU-6050 has no magnetometer).
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
