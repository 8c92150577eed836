import IMUGeometry

/// An accelerometer's per-axis zero-g offset and sensitivity correction:
/// corrected = scale ⊙ (raw − offset), both in the device's axes, acceleration in g.
public struct AccelerometerCalibration: Sendable, Equatable {
    public var offsetG: Vector3
    /// Dimensionless multipliers, near 1.
    public var scale: Vector3

    public init(offsetG: Vector3, scale: Vector3) {
        self.offsetG = offsetG
        self.scale = scale
    }

    public static let identity = AccelerometerCalibration(offsetG: .zero, scale: Vector3(1, 1, 1))

    /// The corrected acceleration, g.
    public func apply(to accelerationG: Vector3) -> Vector3 {
        let d = accelerationG - offsetG
        return Vector3(scale.x * d.x, scale.y * d.y, scale.z * d.z)
    }
}
