import Foundation
import IMUGeometry

/// A seeded generator (SplitMix64) so every synthetic data set is the same on every run.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [−limit, limit].
    mutating func symmetric(_ limit: Double) -> Double { (2 * uniform() - 1) * limit }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    mutating func gaussianVector(_ sigma: Double) -> Vector3 {
        Vector3(gaussian() * sigma, gaussian() * sigma, gaussian() * sigma)
    }

    /// A rotation drawn uniformly (Shoemake's method).
    mutating func rotation() -> Quaternion {
        let u1 = uniform(), u2 = uniform() * 2 * .pi, u3 = uniform() * 2 * .pi
        let a = (1 - u1).squareRoot(), b = u1.squareRoot()
        return Quaternion(w: b * cos(u3), x: a * sin(u2), y: a * cos(u2), z: b * sin(u3))
    }

    /// A unit vector drawn uniformly on the sphere.
    mutating func direction() -> Vector3 {
        let z = symmetric(1), phi = uniform() * 2 * .pi, r = (1 - z * z).squareRoot()
        return Vector3(r * cos(phi), r * sin(phi), z)
    }
}

let degree = Double.pi / 180

/// The Earth's field somewhere in Europe, reference frame (ENU), µT: 49.6 µT, inclination 64°.
let earthFieldMicrotesla = Vector3(0, 21.7, -44.6)

func matrixClose(_ a: Matrix3, _ b: Matrix3) -> Double {
    var worst = 0.0
    for i in 0..<3 { for j in 0..<3 { worst = max(worst, abs(a[i, j] - b[i, j])) } }
    return worst
}

func standardDeviation(_ values: [Double]) -> Double {
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
}
