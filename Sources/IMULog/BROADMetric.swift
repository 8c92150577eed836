#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IMUGeometry

/// The BROAD paper's attitude error for one sample: q_err = q_est ⊗ q_true⁻¹ (both normalised),
/// split into the rotation about the earth's vertical (heading) and the rest (inclination).
/// Radians; invariant under q → −q of either input.
public struct AttitudeError: Sendable, Equatable {
    /// 2·acos(|w|)
    public var total: Double
    /// 2·atan(|z / w|)
    public var heading: Double
    /// 2·acos(√(w² + z²))
    public var inclination: Double

    public init(estimate: Quaternion, truth: Quaternion) {
        let e = estimate.normalized * truth.normalized.conjugate
        // For a unit quaternion acos(c) = atan2(√(1 − c²), c), and 1 − w² = x² + y² + z², so these
        // are the paper's formulas, written with atan2: acos near 1 loses half the digits
        // (an exact heading offset would show ~1e-6° of inclination), atan2 does not; and
        // atan2(|z|, |w|) is atan(|z/w|) that is also defined where w = 0.
        let w = abs(e.w)
        let horizontal = (e.x * e.x + e.y * e.y).squareRoot()
        total = 2 * atan2((horizontal * horizontal + e.z * e.z).squareRoot(), w)
        heading = 2 * atan2(abs(e.z), w)
        inclination = 2 * atan2(horizontal, (w * w + e.z * e.z).squareRoot())
    }
}

/// A trial's score: RMS of each error over the rows in movement with known truth, in degrees.
public struct BROADScore: Sendable, Equatable {
    public var totalDegrees: Double
    public var headingDegrees: Double
    public var inclinationDegrees: Double
    /// How many rows the RMS is over.
    public var samples: Int
}

/// Accumulates the BROAD metric sample by sample (so an estimator can be scored while it runs).
public struct BROADMetric: Sendable {
    private var sumTotal = 0.0
    private var sumHeading = 0.0
    private var sumInclination = 0.0
    private var count = 0

    public init() {}

    /// Counts the sample only when `movement` is set and the truth is known.
    public mutating func add(estimate: Quaternion, truth: Quaternion?, movement: Bool) {
        guard movement, let truth else { return }
        let error = AttitudeError(estimate: estimate, truth: truth)
        sumTotal += error.total * error.total
        sumHeading += error.heading * error.heading
        sumInclination += error.inclination * error.inclination
        count += 1
    }

    /// nil when no sample counted.
    public var score: BROADScore? {
        guard count > 0 else { return nil }
        func rmsDegrees(_ sum: Double) -> Double { (sum / Double(count)).squareRoot() * 180 / .pi }
        return BROADScore(
            totalDegrees: rmsDegrees(sumTotal), headingDegrees: rmsDegrees(sumHeading),
            inclinationDegrees: rmsDegrees(sumInclination), samples: count)
    }

    /// Scores one estimate per row of `trial` (estimates[i] for rows[i]).
    public static func score(estimates: [Quaternion], trial: BROADTrial) -> BROADScore? {
        precondition(estimates.count == trial.rows.count, "one estimate per row: \(estimates.count) for \(trial.rows.count) rows")
        var metric = BROADMetric()
        for (estimate, row) in zip(estimates, trial.rows) {
            metric.add(estimate: estimate, truth: row.truth, movement: row.movement)
        }
        return metric.score
    }
}
