import IMUGeometry

/// What the filter reports, Core Motion's meanings (device frame unless said otherwise).
public struct FusionOutput: Sendable, Equatable {
    /// Device → ENU (magnetic north) after a magnetometer sample, else device → arbitrary-heading frame.
    public var attitude: Quaternion
    /// Gravity in g, pointing down (face up: (0, 0, −1)).
    public var gravity: Vector3
    /// Total acceleration minus gravity, in g.
    public var userAcceleration: Vector3
    /// Rotation rate with the bias removed (rad/s).
    public var rotationRate: Vector3
    /// The estimated gyroscope bias (rad/s).
    public var gyroBias: Vector3
    public var isAtRest: Bool
    public var isMagneticallyDisturbed: Bool
    /// Heading uncertainty (rad); π when unknown (no magnetometer yet, or 6D).
    public var headingAccuracy: Double
    /// True once the warm-up has passed (and, with a magnetometer, the heading is set).
    public var isValid: Bool
}

extension FusionState {
    public func output(parameters p: FusionParameters) -> FusionOutput {
        let q = attitude
        // Gravity (down) in device axes: −Rᵀ·e_z, i.e. minus the third row of R.
        let gravity = Vector3(
            -2 * (q.x * q.z - q.w * q.y), -2 * (q.y * q.z + q.w * q.x), -(1 - 2 * (q.x * q.x + q.y * q.y)))
        return FusionOutput(
            attitude: q,
            gravity: gravity,
            userAcceleration: lastAccel - gravity,
            rotationRate: lastGyro - bias,
            gyroBias: bias,
            isAtRest: rest.isAtRest,
            isMagneticallyDisturbed: heading.isInitialised && heading.disturbance.isDisturbed,
            headingAccuracy: heading.isInitialised ? heading.accuracy : .pi,
            isValid: elapsed >= p.warmUpDuration && (heading.isInitialised || heading.elapsed == 0))
    }
}
