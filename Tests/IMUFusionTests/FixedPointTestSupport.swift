// Helpers for the fixed-point tests: a seeded generator (so accuracy sweeps are reproducible),
// Double references for quaternions, and errors measured in LSB.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IMUFusion

/// SplitMix64: a tiny, fast, seeded generator; the sweeps are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The value of an environment variable, or nil.
func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// |fixed − exact| in LSB of the fixed value's format.
func errorInLSB<Fixed: FixedPointNumber>(_ fixed: Fixed, _ exact: Double) -> Double {
    abs(fixed.doubleValue - exact) * Fixed.scale
}

/// A quaternion in Double, (w, x, y, z).
struct ReferenceQuaternion {
    var w, x, y, z: Double

    init(w: Double, x: Double, y: Double, z: Double) { (self.w, self.x, self.y, self.z) = (w, x, y, z) }
    init(_ q: FixedQuaternion) { self.init(w: q.w.doubleValue, x: q.x.doubleValue, y: q.y.doubleValue, z: q.z.doubleValue) }

    static func * (a: Self, b: Self) -> Self {
        Self(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
             x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
             y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
             z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    var components: [Double] { [w, x, y, z] }

    /// The rotation matrix in the same form as the fixed-point one (w² + x² − y² − z² on the
    /// diagonal), applied to v.
    func rotate(_ v: (Double, Double, Double)) -> (Double, Double, Double) {
        let r00 = w * w + x * x - y * y - z * z, r01 = 2 * (x * y - w * z), r02 = 2 * (x * z + w * y)
        let r10 = 2 * (x * y + w * z), r11 = w * w - x * x + y * y - z * z, r12 = 2 * (y * z - w * x)
        let r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x), r22 = w * w - x * x - y * y + z * z
        return (r00 * v.0 + r01 * v.1 + r02 * v.2, r10 * v.0 + r11 * v.1 + r12 * v.2, r20 * v.0 + r21 * v.1 + r22 * v.2)
    }
}

/// A random unit quaternion (uniform on the 3-sphere), rounded to Q2.30.
func randomUnitQuaternion(_ rng: inout SplitMix64) -> FixedQuaternion {
    var c: [Double]
    repeat {
        c = (0..<4).map { _ in Double.random(in: -1...1, using: &rng) }
    } while c.map { $0 * $0 }.reduce(0, +) > 1 || c.map { $0 * $0 }.reduce(0, +) < 1e-6
    let n = c.map { $0 * $0 }.reduce(0, +).squareRoot()
    return FixedQuaternion(w: Q30(c[0] / n), x: Q30(c[1] / n), y: Q30(c[2] / n), z: Q30(c[3] / n))
}

/// | |q|² − 1 | in LSB of Q2.30, from the exact 64-bit squared norm.
func squaredNormErrorInLSB(_ q: FixedQuaternion) -> Double {
    abs(Double(q.squaredNormSignificand) - Double(UInt64(1) << 58)) / Double(1 << 28)
}

/// Double math functions from the C library, so the tests stay Foundation-free like the module.
enum Math {
    static func cos(_ x: Double) -> Double { Glibc.cos(x) }
    static func sin(_ x: Double) -> Double { Glibc.sin(x) }
    static func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
}
