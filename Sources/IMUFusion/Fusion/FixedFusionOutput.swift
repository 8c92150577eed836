/// What the fixed-point filter reports, with Core Motion's meanings (device frame unless said).
public struct FixedFusionOutput: Sendable, Equatable {
    /// Device → ENU (magnetic north) after a magnetometer sample, else device → arbitrary heading.
    public var attitude: FixedQuaternion
    /// Gravity (g, pointing down: face up is (0, 0, −1)), a unit vector.
    public var gravity: FixedVector3<Q30>
    /// Total acceleration minus gravity (g).
    public var userAcceleration: FixedVector3<Q16>
    /// Rotation rate with the bias removed (rad/s).
    public var rotationRate: FixedVector3<Q16>
    /// The estimated gyro bias (rad/s, rounded from the Q40 state).
    public var gyroBias: FixedVector3<Q16>
    public var isAtRest: Bool
    public var isMagneticallyDisturbed: Bool
    /// Heading uncertainty (rad); π when unknown (no magnetometer yet, or 6D).
    public var headingAccuracy: Q29
    /// True once the warm-up has passed (and, with a magnetometer, the heading is set).
    public var isValid: Bool

    @inlinable
    public init(
        attitude: FixedQuaternion, gravity: FixedVector3<Q30>, userAcceleration: FixedVector3<Q16>,
        rotationRate: FixedVector3<Q16>, gyroBias: FixedVector3<Q16>, isAtRest: Bool,
        isMagneticallyDisturbed: Bool, headingAccuracy: Q29, isValid: Bool
    ) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
        self.rotationRate = rotationRate
        self.gyroBias = gyroBias
        self.isAtRest = isAtRest
        self.isMagneticallyDisturbed = isMagneticallyDisturbed
        self.headingAccuracy = headingAccuracy
        self.isValid = isValid
    }
}

extension FixedFusionState {
    /// The outputs after the last update (not needed by the update itself: call when wanted).
    @inlinable
    public func output(coefficients c: FixedFusionCoefficients) -> FixedFusionOutput {
        let q = attitude
        // Gravity (down) in device axes: minus the third row of R(q).
        let row2 = q.rotationMatrix.row2
        let gravity = FixedVector3(x: -row2.x, y: -row2.y, z: -row2.z)
        let bias = self.bias.q16
        let accuracy = heading.isInitialised
            ? Q29(raw: saturatedInt32(roundingShiftRight(headingAccuracy(coefficients: c), by: 11))) : Q29.pi
        return FixedFusionOutput(
            attitude: q, gravity: gravity, userAcceleration: lastAccel - FixedVector3<Q16>(gravity),
            rotationRate: lastGyro - bias, gyroBias: bias, isAtRest: rest.isAtRest,
            isMagneticallyDisturbed: heading.isInitialised && heading.disturbance.isDisturbed,
            headingAccuracy: accuracy,
            isValid: elapsed >= c.warmUpDuration && (heading.isInitialised || heading.elapsed == 0))
    }
}
