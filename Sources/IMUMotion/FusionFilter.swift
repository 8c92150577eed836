import IMUDrivers
import IMUGeometry

/// What a fusion filter says after a sample, in the filter's own reference: magnetic-north ENU
/// when it uses a magnetometer, an arbitrary heading otherwise.
public struct FusionEstimate: Sendable, Equatable {
    /// Device → reference.
    public var attitude: Quaternion
    /// Gravity in device axes, g, pointing down.
    public var gravity: Vector3
    /// Total acceleration minus gravity, device axes, g.
    public var userAcceleration: Vector3
    /// rad/s with the estimated bias removed.
    public var rotationRate: Vector3
    /// The estimated gyro bias, rad/s.
    public var gyroBias: Vector3
    public var isResting: Bool
    /// The magnetometer is being ignored (a field that does not look like the earth's).
    public var magneticDisturbance: Bool
    /// Whether the heading is referenced to magnetic north (a magnetometer is in use).
    public var headingIsMagnetic: Bool
    /// An estimate of the heading's error, in degrees (nil when the filter cannot say).
    public var headingAccuracyDegrees: Double?

    public init(
        attitude: Quaternion, gravity: Vector3, userAcceleration: Vector3, rotationRate: Vector3,
        gyroBias: Vector3, isResting: Bool, magneticDisturbance: Bool, headingIsMagnetic: Bool,
        headingAccuracyDegrees: Double?
    ) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
        self.gyroBias = gyroBias
        self.isResting = isResting
        self.magneticDisturbance = magneticDisturbance
        self.headingIsMagnetic = headingIsMagnetic
        self.headingAccuracyDegrees = headingAccuracyDegrees
    }
}

/// A sensor-fusion filter as the motion layer uses it: samples in (device axes, Core Motion units,
/// already calibrated), an estimate out once it is valid. The fixed-point core and its Double
/// reference both present themselves this way.
public protocol FusionFilter {
    /// Feeds one sample; `dt` is the time since the previous one (s). nil while warming up.
    mutating func update(_ sample: MotionSample, dt: Double) -> FusionEstimate?
    /// Back to the state before the first sample.
    mutating func reset()
    /// Takes `offset` (rad/s, device axes) as the gyro's zero-rate offset now, as a rest that
    /// measured it would: the start from offsets learned in earlier runs (`GyroOffsetLearning`).
    mutating func adoptGyroOffset(_ offset: Vector3)
    /// Moves the bias estimate by `change` (rad/s): the temperature model's drift between two
    /// temperatures, fed forward.
    mutating func shiftGyroOffset(by change: Vector3)
}
