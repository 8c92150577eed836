import IMUGeometry

/// One accelerometer + gyroscope reading, as the calibration fits take it: plain values in the
/// project's units and signs (acceleration in g with gravity pointing down, so lying face up
/// reads z = −1; rotation rate in rad/s; temperature in °C). Kept separate from the drivers'
/// sample type so the fits depend on nothing but geometry and can be fed from a log.
public struct InertialSample: Sendable, Equatable {
    /// Seconds on a monotonic clock.
    public var timestamp: Double
    public var accelerationG: Vector3
    public var rotationRateRadiansPerSecond: Vector3
    /// nil when the read did not include it.
    public var temperatureCelsius: Double?

    public init(
        timestamp: Double, accelerationG: Vector3, rotationRateRadiansPerSecond: Vector3,
        temperatureCelsius: Double? = nil
    ) {
        self.timestamp = timestamp
        self.accelerationG = accelerationG
        self.rotationRateRadiansPerSecond = rotationRateRadiansPerSecond
        self.temperatureCelsius = temperatureCelsius
    }
}
