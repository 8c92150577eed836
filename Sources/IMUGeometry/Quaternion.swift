#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit quaternion (w, x, y, z) for a rotation. As an attitude it rotates device coordinates
/// into the reference frame: `v_reference = q.rotate(v_device)`.
public struct Quaternion: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// The rotation by `angle` radians about `axis` (right-hand rule).
    public init(axis: Vector3, angle: Double) {
        let a = axis.normalized
        let half = angle / 2
        let s = sin(half)
        self.init(w: cos(half), x: a.x * s, y: a.y * s, z: a.z * s)
    }

    /// The rotation by the rotation vector `v` (axis × angle in radians).
    public init(rotationVector v: Vector3) {
        let angle = v.length
        if angle < 1e-12 {
            self.init(w: 1, x: v.x / 2, y: v.y / 2, z: v.z / 2)
            self = normalized
        } else {
            self.init(axis: v, angle: angle)
        }
    }

    public var vector: Vector3 { Vector3(x, y, z) }
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    public var normalized: Quaternion {
        let n = norm
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    public func rotate(_ v: Vector3) -> Vector3 {
        // v' = v + 2w(u×v) + 2u×(u×v), u = vector part.
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// The same rotation as a matrix (device → reference when the quaternion is an attitude).
    public var rotationMatrix: Matrix3 {
        Matrix3(
            rows: Vector3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            Vector3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            Vector3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }

    /// The angle in radians between two attitudes (0…π).
    public func angle(to other: Quaternion) -> Double {
        let d = abs(w * other.w + x * other.x + y * other.y + z * other.z)
        return 2 * acos(min(1, d))
    }

    public var description: String { "(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
