/// Every number a line carries is one of these quantities, and each quantity has one count of
/// decimals, in this one table: the socket, the WebSocket, MQTT and `imu read/stream/events`
/// print the same value the same way.
public enum WireQuantity: CaseIterable, Sendable {
    /// Seconds on the monotonic clock (`t`): microseconds.
    case timestamp
    /// Quaternion components, unitless.
    case quaternion
    /// Euler angles (roll, pitch, yaw), degrees.
    case angleDegrees
    /// Heading, degrees clockwise from north, in [0, 360).
    case headingDegrees
    /// Acceleration, gravity and user acceleration, g.
    case accelerationG
    /// Rotation rate, rad/s.
    case rotationRate
    /// Magnetic field, µT.
    case magneticFieldMicrotesla
    /// Temperature, °C.
    case temperatureCelsius
    /// A rate, Hz.
    case rateHz
    /// A duration, seconds.
    case durationSeconds
    /// A gyroscope bias from a calibration, rad/s or °/s as the payload says.
    case bias
    /// A percentage.
    case percent
    /// A point of the magnetometer's sweep drawn by the page, µT (coarse: many are sent).
    case sweepPointMicrotesla

    /// The decimals written for the quantity.
    public var decimals: Int {
        switch self {
        case .timestamp: 6
        case .quaternion: 6
        case .angleDegrees: 3
        case .headingDegrees: 2
        case .accelerationG: 5
        case .rotationRate: 5
        case .magneticFieldMicrotesla: 3
        case .temperatureCelsius: 2
        case .rateHz: 3
        case .durationSeconds: 3
        case .bias: 4
        case .percent: 1
        case .sweepPointMicrotesla: 1
        }
    }
}
