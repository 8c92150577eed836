import IMUGeometry

/// How far to trust a calibrated magnetic field, with Core Motion's levels.
public enum MagneticFieldCalibrationAccuracy: Int, Sendable, Equatable, Comparable, CaseIterable, CustomStringConvertible {
    case uncalibrated = -1
    case low = 0
    case medium = 1
    case high = 2

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public var description: String {
        switch self {
        case .uncalibrated: "uncalibrated"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }
}

/// The magnetic field with the device's own (hard and soft iron) bias removed, in µT, device axes.
public struct CalibratedMagneticField: Sendable, Equatable {
    public var field: Vector3
    public var accuracy: MagneticFieldCalibrationAccuracy

    public init(field: Vector3, accuracy: MagneticFieldCalibrationAccuracy) {
        self.field = field
        self.accuracy = accuracy
    }
}

/// What the fusion of the sensors says about the device at one instant, with Core Motion's
/// meanings: vectors in device axes, acceleration in g with gravity pointing down.
public struct DeviceMotion: Sendable, Equatable {
    /// Seconds on the monotonic clock (the sample's timestamp).
    public var timestamp: Double
    public var attitude: Attitude
    /// rad/s, with the gyro's estimated bias removed.
    public var rotationRate: Vector3
    /// Gravity in device axes, in g (pointing down: lying face up it is (0, 0, −1)).
    public var gravity: Vector3
    /// The acceleration the user gives the device: total acceleration minus gravity, in g.
    public var userAcceleration: Vector3
    /// nil without a magnetometer.
    public var magneticField: CalibratedMagneticField?
    /// Degrees clockwise from north in [0, 360) in the north frames; nil in the arbitrary ones
    /// (Core Motion reports a negative value there) or when the heading axis is vertical.
    public var heading: Double?

    public init(
        timestamp: Double, attitude: Attitude, rotationRate: Vector3, gravity: Vector3, userAcceleration: Vector3,
        magneticField: CalibratedMagneticField? = nil, heading: Double? = nil
    ) {
        self.timestamp = timestamp
        self.attitude = attitude
        self.rotationRate = rotationRate
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.magneticField = magneticField
        self.heading = heading
    }
}
