import IMUGeometry

extension CalibrationFile {
    /// A sample with whatever this file calibrates applied (gyro bias, accelerometer offset
    /// and scale); parts without a calibration pass through unchanged.
    public func apply(to sample: InertialSample) -> InertialSample {
        var out = sample
        if let gyroscope { out.rotationRateRadiansPerSecond = gyroscope.value.apply(to: sample.rotationRateRadiansPerSecond) }
        if let accelerometer { out.accelerationG = accelerometer.value.apply(to: sample.accelerationG) }
        return out
    }

    /// A magnetometer reading (µT) calibrated, or unchanged without a magnetometer calibration.
    public func apply(toMagneticFieldMicrotesla raw: Vector3) -> Vector3 {
        magnetometer?.value.apply(to: raw) ?? raw
    }
}
