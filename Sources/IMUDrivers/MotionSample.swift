import IMUGeometry

/// One set of readings from a chip, already in Core Motion's units and signs:
/// acceleration in g with gravity pointing down (lying face up reads z = −1), rotation rate in
/// rad/s counter-clockwise positive, magnetic field in µT, temperature in °C.
///
/// The axes are the chip's accel/gyro axes (the LSM9DS1's magnetometer already turned into
/// them); the board's mounting turns them into device axes one layer up.
public struct MotionSample: Sendable, Equatable {
    /// Seconds on the monotonic clock, taken as close to the hardware as possible.
    public var timestamp: Double
    public var acceleration: Vector3
    public var rotationRate: Vector3
    /// nil on chips without a magnetometer.
    public var magneticField: Vector3?
    /// nil when the chip does not measure it in this read (FIFO batches, for example).
    public var temperature: Double?

    public init(
        timestamp: Double, acceleration: Vector3, rotationRate: Vector3,
        magneticField: Vector3? = nil, temperature: Double? = nil
    ) {
        self.timestamp = timestamp
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.temperature = temperature
    }
}
