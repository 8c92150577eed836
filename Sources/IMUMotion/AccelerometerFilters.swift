import IMUGeometry

/// The seeds' accelerometer filters, usable on any stream of vectors.
///
/// Low-pass keeps the slowly changing part (gravity, the device's tilt):
/// `filtered = factor · sample + (1 − factor) · filtered`. High-pass keeps the quick changes (a
/// shake, a tap): `sample − lowPass(sample)`. The smoothing factor is the share of each new
/// sample (0.1 in the seeds): smaller is smoother and slower.
public struct LowPassFilter: Sendable, Equatable {
    public let factor: Double
    public private(set) var value: Vector3?

    public init(factor: Double) {
        precondition(factor > 0 && factor <= 1, "the smoothing factor is in (0, 1]")
        self.factor = factor
    }

    /// Feeds one sample; returns the filtered value (the first sample passes through).
    public mutating func filter(_ sample: Vector3) -> Vector3 {
        let next = value.map { factor * sample + (1 - factor) * $0 } ?? sample
        value = next
        return next
    }
}

public struct HighPassFilter: Sendable, Equatable {
    private var lowPass: LowPassFilter

    public init(factor: Double) {
        lowPass = LowPassFilter(factor: factor)
    }

    public var factor: Double { lowPass.factor }

    /// Feeds one sample; returns what is left after the slow part is taken out.
    public mutating func filter(_ sample: Vector3) -> Vector3 {
        sample - lowPass.filter(sample)
    }
}
