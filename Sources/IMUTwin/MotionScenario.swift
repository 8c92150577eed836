import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What is true about the device at one instant, in the reference frame (ENU: x east,
/// y north, z up), in Core Motion's units and signs.
public struct MotionTruth: Sendable, Equatable {
    /// Rotates device coordinates into ENU (identity: lying face up, top pointing north).
    public var attitude: Quaternion
    /// The user's acceleration in ENU, g, with Core Motion's sign (what
    /// `CMDeviceMotion.userAcceleration` would report, turned into ENU).
    public var userAccelerationG: Vector3
    /// Field added to the Earth's (a magnet nearby), ENU, µT.
    public var extraMagneticFieldMicrotesla: Vector3

    public init(attitude: Quaternion, userAccelerationG: Vector3 = .zero, extraMagneticFieldMicrotesla: Vector3 = .zero) {
        self.attitude = attitude
        self.userAccelerationG = userAccelerationG
        self.extraMagneticFieldMicrotesla = extraMagneticFieldMicrotesla
    }
}

/// A motion a device goes through: the truth at every time t (seconds since the scenario
/// started). Rotation rate is derived from the attitude, so a scenario only says where the
/// device points.
public protocol MotionScenario: Sendable {
    /// The name `--scenario` takes.
    var name: String { get }
    /// One line for `imu sim --list-scenarios`.
    var summary: String { get }
    func truth(at t: Double) -> MotionTruth
}

/// Gravity in ENU with Core Motion's sign: it points down.
public let gravityENUG = Vector3(0, 0, -1)

/// What the device's sensors should see at time `t`, in device axes: the quantities the chips
/// measure before any error or mounting.
public struct DeviceTruth: Sendable, Equatable {
    /// Specific force, g: what an accelerometer reads (face up at rest: z = +1). Core Motion's
    /// acceleration is its negative.
    public var specificForceG: Vector3
    /// Angular velocity of the device, device axes, rad/s, counter-clockwise positive.
    public var rotationRateRadiansPerSecond: Vector3
    /// Magnetic field, device axes, µT (Earth's plus the scenario's extra field).
    public var magneticFieldMicrotesla: Vector3
    public var attitude: Quaternion
}

extension MotionScenario {
    /// The device-frame truth at `t`, with the rotation rate from the attitude by a central
    /// difference: ω = log(q(t−h)⁻¹ · q(t+h)) / 2h, which is the body-frame rate because the
    /// attitude rotates device → reference.
    public func deviceTruth(at t: Double, earthField: EarthField = .berlin) -> DeviceTruth {
        let now = truth(at: t)
        let toDevice = now.attitude.conjugate
        let force = toDevice.rotate(-(gravityENUG + now.userAccelerationG))
        let field = toDevice.rotate(earthField.enuMicrotesla + now.extraMagneticFieldMicrotesla)
        let h = 1e-4
        let before = truth(at: t - h).attitude, after = truth(at: t + h).attitude
        let rate = (before.conjugate * after).rotationVector / (2 * h)
        return DeviceTruth(
            specificForceG: force, rotationRateRadiansPerSecond: rate,
            magneticFieldMicrotesla: field, attitude: now.attitude)
    }
}

extension Quaternion {
    /// Axis × angle (radians) of this rotation, taking the short way (angle ≤ π).
    var rotationVector: Vector3 {
        var q = self.normalized
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        let s = q.vector.length
        if s < 1e-12 { return 2 * q.vector }
        return q.vector * (2 * atan2(s, q.w) / s)
    }

    /// Spherical interpolation from `a` (f = 0) to `b` (f = 1), the short way round.
    static func slerp(_ a: Quaternion, _ b: Quaternion, _ f: Double) -> Quaternion {
        a * Quaternion(rotationVector: (a.conjugate * b).rotationVector * f)
    }
}
