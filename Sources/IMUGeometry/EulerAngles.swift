#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Roll, pitch and yaw with Core Motion's meanings, in radians: pitch about x, roll about y, yaw
/// about z, composed as R = Rz(yaw)·Rx(pitch)·Ry(roll) (device → reference). Pitch is in
/// [−π/2, π/2], roll and yaw in (−π, π].
///
/// A device held upright has pitch +π/2; lying on its right edge, roll +π/2; lying on its back
/// with its top pointing west (in a north-referenced frame), yaw +π/2.
public struct EulerAngles: Sendable, Equatable, CustomStringConvertible {
    public var roll: Double
    public var pitch: Double
    public var yaw: Double

    public init(roll: Double, pitch: Double, yaw: Double) {
        self.roll = roll
        self.pitch = pitch
        self.yaw = yaw
    }

    /// The angles of a rotation matrix (device → reference). At pitch ±π/2 roll and yaw turn
    /// about the same axis; the whole turn is then given to yaw and roll is 0.
    public init(_ m: Matrix3) {
        let sinPitch = max(-1, min(1, m[2, 1]))
        pitch = asin(sinPitch)
        if abs(sinPitch) < 1 - 1e-12 {
            roll = atan2(-m[2, 0], m[2, 2])
            yaw = atan2(-m[0, 1], m[1, 1])
        } else {
            roll = 0
            yaw = atan2(m[1, 0], m[0, 0])
        }
        roll = Self.halfOpen(roll)
        yaw = Self.halfOpen(yaw)
    }

    /// The rotation matrix Rz(yaw)·Rx(pitch)·Ry(roll).
    public var rotationMatrix: Matrix3 {
        let (sr, cr) = (sin(roll), cos(roll))
        let (sp, cp) = (sin(pitch), cos(pitch))
        let (sy, cy) = (sin(yaw), cos(yaw))
        return Matrix3(
            rows: Vector3(cy * cr - sy * sp * sr, -sy * cp, cy * sr + sy * sp * cr),
            Vector3(sy * cr + cy * sp * sr, cy * cp, sy * sr - cy * sp * cr),
            Vector3(-cp * sr, sp, cp * cr))
    }

    /// −π maps to π, so the range is (−π, π] as Core Motion reports it.
    private static func halfOpen(_ angle: Double) -> Double {
        angle <= -Double.pi ? angle + 2 * .pi : angle
    }

    public var description: String {
        let degrees = 180 / Double.pi
        return "(roll: \(roll * degrees)°, pitch: \(pitch * degrees)°, yaw: \(yaw * degrees)°)"
    }
}

extension Quaternion {
    /// The quaternion of a rotation matrix (Shepperd's method: the largest of w, x, y, z is
    /// computed first, so no division by a small number). w ≥ 0.
    public init(_ m: Matrix3) {
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        var q: Quaternion
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = Quaternion(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            q = Quaternion(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            q = Quaternion(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        self = q.normalized
    }

    public init(_ angles: EulerAngles) {
        self.init(angles.rotationMatrix)
    }

    /// Roll, pitch and yaw with Core Motion's meanings.
    public var eulerAngles: EulerAngles { EulerAngles(rotationMatrix) }
}
