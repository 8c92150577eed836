import IMUGeometry

/// One accelerometer reading, as Core Motion's `CMAccelerometerData`: g, device axes, gravity
/// pointing down (lying face up it reads (0, 0, −1)).
public struct AccelerometerData: Sendable, Equatable {
    /// Seconds on the manager's monotonic clock.
    public var timestamp: Double
    public var acceleration: Vector3

    public init(timestamp: Double, acceleration: Vector3) {
        self.timestamp = timestamp
        self.acceleration = acceleration
    }
}

/// One raw gyroscope reading, as `CMGyroData`: rad/s, device axes, still biased (device motion's
/// rotation rate has the bias removed).
public struct GyroData: Sendable, Equatable {
    public var timestamp: Double
    public var rotationRate: Vector3

    public init(timestamp: Double, rotationRate: Vector3) {
        self.timestamp = timestamp
        self.rotationRate = rotationRate
    }
}

/// One raw magnetometer reading, as `CMMagnetometerData`: µT, device axes, with the device's own
/// (hard and soft iron) bias still in it.
public struct MagnetometerData: Sendable, Equatable {
    public var timestamp: Double
    public var magneticField: Vector3

    public init(timestamp: Double, magneticField: Vector3) {
        self.timestamp = timestamp
        self.magneticField = magneticField
    }
}
