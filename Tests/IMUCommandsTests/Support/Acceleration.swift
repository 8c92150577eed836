/// An acceleration in g, in the device's axes (x right, y top, z out of the front).
struct Acceleration: Equatable, CustomStringConvertible {
    var x, y, z: Double

    init(_ x: Double, _ y: Double, _ z: Double) {
        (self.x, self.y, self.z) = (x, y, z)
    }

    /// The average of `samples` (there must be some).
    init(meanOf samples: [Acceleration]) {
        let n = Double(samples.count)
        self.init(
            samples.map(\.x).reduce(0, +) / n, samples.map(\.y).reduce(0, +) / n, samples.map(\.z).reduce(0, +) / n)
    }

    /// Every axis within `tolerance` of `other`'s.
    func isNear(_ other: Acceleration, within tolerance: Double) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance && abs(z - other.z) <= tolerance
    }

    var description: String {
        func f(_ v: Double) -> String { String((v * 100_000).rounded() / 100_000) }
        return "(x \(f(x)), y \(f(y)), z \(f(z)))"
    }
}
