import IMUGeometry

/// The device's orientation relative to a reference frame, with Core Motion's meanings: the
/// quaternion and the rotation matrix both turn device coordinates into reference coordinates,
/// and roll, pitch and yaw are R = Rz(yaw)·Rx(pitch)·Ry(roll) (see `EulerAngles`).
public struct Attitude: Sendable, Equatable, CustomStringConvertible {
    public var quaternion: Quaternion
    /// The frame the attitude is relative to.
    public var referenceFrame: ReferenceFrame

    public init(quaternion: Quaternion, referenceFrame: ReferenceFrame) {
        self.quaternion = quaternion.normalized
        self.referenceFrame = referenceFrame
    }

    public var rotationMatrix: Matrix3 { quaternion.rotationMatrix }

    /// Radians: rotation about the device's y axis, (−π, π].
    public var roll: Double { quaternion.eulerAngles.roll }
    /// Radians: rotation about the device's x axis, [−π/2, π/2].
    public var pitch: Double { quaternion.eulerAngles.pitch }
    /// Radians: rotation about the vertical, (−π, π].
    public var yaw: Double { quaternion.eulerAngles.yaw }

    /// Makes this attitude relative to `reference` (Core Motion's `multiply(byInverseOf:)`):
    /// afterwards it is the rotation from the `reference` attitude to this one, so a device that
    /// has not moved since `reference` was stored reads identity.
    public mutating func multiply(byInverseOf reference: Attitude) {
        quaternion = (reference.quaternion.conjugate * quaternion).normalized
    }

    public var description: String { quaternion.eulerAngles.description }
}

/// Core Motion's reference frames. All have z vertical (up) and gravity = (0, 0, −1); they differ
/// in where x points.
public enum ReferenceFrame: String, Sendable, Equatable, CaseIterable, Codable {
    /// No magnetometer: heading starts at 0 and drifts with the gyro's remaining bias.
    case xArbitraryZVertical
    /// Heading starts at 0; the magnetometer stops it drifting.
    case xArbitraryCorrectedZVertical
    /// Referenced to magnetic north: identity is lying face up with the top pointing north (ENU).
    case xMagneticNorthZVertical
    /// Referenced to true north: needs the magnetic declination (a location or an explicit value).
    case xTrueNorthZVertical

    /// Whether the frame needs a magnetometer.
    public var needsMagnetometer: Bool { self != .xArbitraryZVertical }
}
