/// Limits that turn a magnetometer fit's figures into an accuracy level, or a refusal. The
/// accuracy is the lowest level all three figures reach.
///
/// | figure                           | high   | medium | low    | refused   |
/// |----------------------------------|--------|--------|--------|-----------|
/// | residual (RMS, % of field)       | ≤ 2    | ≤ 4    | ≤ 8    | > 8       |
/// | coverage (% of direction bins)   | ≥ 75   | ≥ 50   | ≥ 30   | < 30      |
/// | field vs expected (% deviation)  | ≤ 10   | ≤ 20   | ≤ 35   | > 35      |
///
/// Without an expected field strength (no location configured), the field must lie in
/// 22–67 µT (Earth's range at the surface) for high, 15–100 µT for low, else it is refused.
/// The residual limits are set against what calibrated data shows: the noise of these parts
/// (0.3–0.5 µT RMS) is about 1 % of the Earth's field, and a fit error of a few % turns into
/// heading errors of a few degrees.
public struct MagnetometerQualityCriteria: Sendable, Equatable {
    public var residualPercent: (high: Double, medium: Double, low: Double)
    public var coveragePercent: (high: Double, medium: Double, low: Double)
    public var fieldDeviationPercent: (high: Double, medium: Double, low: Double)
    public var plausibleFieldMicrotesla: ClosedRange<Double>
    public var acceptableFieldMicrotesla: ClosedRange<Double>
    /// Coverage below which only the 4-parameter sphere (hard iron) is fitted: with less of the
    /// sphere seen, a soft-iron shape is not determined and would bend the result.
    public var ellipsoidMinimumCoveragePercent: Double
    /// Largest ratio of the soft-iron matrix's semi-axes; a fitted shape more squashed than
    /// this is taken for a bad fit and the sphere is used instead.
    public var maximumSoftIronAxisRatio: Double
    /// A richer model (hard iron over none, soft iron over hard iron only) is used only when it
    /// lowers the RMS residual by at least this fraction; otherwise its extra parameters
    /// describe the room (field gradients, noise) rather than the board. On BROAD's
    /// factory-calibrated magnetometer, trial 02's hard iron (0.5 µT) lowered the residual by
    /// 7 % and its ellipsoid by 3.5 % more, and either moved the heading of the other trials
    /// the wrong way about as often as the right way; on boards with a hard iron of a few µT
    /// or a few % of soft iron the step lowers the residual by half or more.
    public var minimumImprovement: Double
    /// Samples whose calibrated magnitude is more than this many robust standard deviations
    /// (1.4826 × MAD) from the median are outliers (a passing car, a screwdriver).
    public var outlierThreshold: Double
    /// Most of the samples that may be dropped as outliers, fraction; more means the field
    /// itself changed during the sweep.
    public var maximumOutlierFraction: Double

    public init() {
        residualPercent = (2, 4, 8)
        coveragePercent = (75, 50, 30)
        fieldDeviationPercent = (10, 20, 35)
        plausibleFieldMicrotesla = 22...67
        acceptableFieldMicrotesla = 15...100
        ellipsoidMinimumCoveragePercent = 50
        maximumSoftIronAxisRatio = 2
        minimumImprovement = 0.1
        outlierThreshold = 3
        maximumOutlierFraction = 0.2
    }

    public static let standard = MagnetometerQualityCriteria()

    /// Whether a richer model's RMS residual is clearly below the simpler one's.
    func paysOff(_ richerResidual: Double, over simplerResidual: Double) -> Bool {
        richerResidual <= (1 - minimumImprovement) * simplerResidual
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.residualPercent == b.residualPercent && a.coveragePercent == b.coveragePercent
            && a.fieldDeviationPercent == b.fieldDeviationPercent
            && a.plausibleFieldMicrotesla == b.plausibleFieldMicrotesla
            && a.acceptableFieldMicrotesla == b.acceptableFieldMicrotesla
            && a.ellipsoidMinimumCoveragePercent == b.ellipsoidMinimumCoveragePercent
            && a.maximumSoftIronAxisRatio == b.maximumSoftIronAxisRatio
            && a.minimumImprovement == b.minimumImprovement
            && a.outlierThreshold == b.outlierThreshold && a.maximumOutlierFraction == b.maximumOutlierFraction
    }

    /// The accuracy the figures earn, or why they are refused. `advice` (where the coverage
    /// is missing) is added to a coverage refusal.
    public func accuracy(
        residualPercent residual: Double, coveragePercent coverage: Double, fieldMicrotesla field: Double,
        expectedFieldMicrotesla expected: Double?, advice: String? = nil
    ) throws(CalibrationRefusal) -> CalibrationAccuracy {
        var level = CalibrationAccuracy.high
        if coverage < coveragePercent.low {
            throw CalibrationRefusal(
                .poorFit, "coverage \(format(coverage, 0))%" + (advice.map { ": \($0)" } ?? ": keep turning"))
        }
        if coverage < coveragePercent.medium { level = min(level, .low) }
        else if coverage < coveragePercent.high { level = min(level, .medium) }

        if !(residual <= residualPercent.low) {
            throw CalibrationRefusal(
                .poorFit,
                "fit error \(format(residual, 1))% of the field (at most \(format(residualPercent.low, 0))%): "
                    + "the field changed during the sweep, or something magnetic moved nearby")
        }
        if residual > residualPercent.medium { level = min(level, .low) }
        else if residual > residualPercent.high { level = min(level, .medium) }

        if let expected {
            let deviation = abs(field - expected) / expected * 100
            if !(deviation <= fieldDeviationPercent.low) {
                throw CalibrationRefusal(
                    .poorFit,
                    "fitted field \(format(field, 1)) µT is \(format(deviation, 0))% from the expected "
                        + "\(format(expected, 1)) µT: iron or a magnet nearby?")
            }
            if deviation > fieldDeviationPercent.medium { level = min(level, .low) }
            else if deviation > fieldDeviationPercent.high { level = min(level, .medium) }
        } else {
            guard acceptableFieldMicrotesla.contains(field) else {
                throw CalibrationRefusal(
                    .poorFit,
                    "fitted field \(format(field, 1)) µT is outside what the Earth gives "
                        + "(\(format(plausibleFieldMicrotesla.lowerBound, 0))–\(format(plausibleFieldMicrotesla.upperBound, 0)) µT)")
            }
            if !plausibleFieldMicrotesla.contains(field) { level = min(level, .low) }
        }
        return level
    }
}
