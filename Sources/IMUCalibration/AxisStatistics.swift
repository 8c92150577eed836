import IMUGeometry

/// Mean and standard deviation per axis of a series of vectors (Welford's update, so long
/// windows of nearly equal values lose no precision to cancellation).
struct AxisStatistics: Sendable, Equatable {
    var count = 0
    var mean = Vector3.zero
    /// Sum of squared deviations from the running mean, per axis.
    private var m2 = Vector3.zero

    init() {}

    init<S: Sequence>(_ values: S) where S.Element == Vector3 {
        for v in values { add(v) }
    }

    mutating func add(_ v: Vector3) {
        count += 1
        let delta = v - mean
        mean += delta / Double(count)
        let delta2 = v - mean
        m2 += Vector3(delta.x * delta2.x, delta.y * delta2.y, delta.z * delta2.z)
    }

    /// Sample standard deviation (n − 1), per axis; zero for fewer than two values.
    var standardDeviation: Vector3 {
        guard count > 1 else { return .zero }
        let n = Double(count - 1)
        return Vector3((m2.x / n).squareRoot(), (m2.y / n).squareRoot(), (m2.z / n).squareRoot())
    }
}

/// Axis names for messages.
let axisNames = ["x", "y", "z"]
