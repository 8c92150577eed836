import IMUGeometry

/// A gyroscope's zero-rate offset: what it reads when not turning. Subtracted from every
/// reading; recorded with the chip temperature because the offset drifts with it.
public struct GyroBiasCalibration: Sendable, Equatable {
    public var biasRadiansPerSecond: Vector3
    /// The chip temperature during the still window, when the chip reported one.
    public var temperatureCelsius: Double?

    public init(biasRadiansPerSecond: Vector3, temperatureCelsius: Double? = nil) {
        self.biasRadiansPerSecond = biasRadiansPerSecond
        self.temperatureCelsius = temperatureCelsius
    }

    /// The unbiased rotation rate, rad/s.
    public func apply(to rotationRateRadiansPerSecond: Vector3) -> Vector3 {
        rotationRateRadiansPerSecond - biasRadiansPerSecond
    }
}

public enum GyroBiasEstimator {
    /// Largest plausible zero-rate offset, rad/s: the LSM9DS1's ±30 °/s (the MPU-6050's is
    /// ±20 °/s). More than that is a steady turn, not bias.
    public static let plausibleBiasRadiansPerSecond = 30 * Double.pi / 180

    /// The gyro bias from a window in which the device rested: the mean per axis, once the
    /// window has passed `criteria` (a window with motion is refused, never averaged in).
    public static func estimate(
        _ samples: [InertialSample], criteria: StillnessCriteria = .standard
    ) throws(CalibrationRefusal) -> GyroBiasCalibration {
        let window = try criteria.check(samples)
        let bias = window.meanRotationRateRadiansPerSecond
        let degrees = 180 / Double.pi
        for axis in 0..<3 where abs(bias[axis]) > plausibleBiasRadiansPerSecond {
            throw CalibrationRefusal(
                .moved,
                "the gyro read a steady \(format(bias[axis] * degrees, 1)) °/s on \(axisNames[axis]), more than any "
                    + "zero-rate offset (\(format(plausibleBiasRadiansPerSecond * degrees, 0)) °/s): was it turning?")
        }
        return GyroBiasCalibration(biasRadiansPerSecond: bias, temperatureCelsius: window.meanTemperatureCelsius)
    }
}
