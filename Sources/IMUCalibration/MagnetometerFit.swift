import Foundation
import IMUGeometry

/// The magnetometer calibration from a sweep through many orientations (a figure-eight):
/// robust ellipsoid fit with outlier rejection, a sphere instead when the data cannot support
/// a shape or the shape does not fit clearly better, no correction at all when even the sphere
/// does not (a factory-calibrated part), then the quality figures and the accuracy.
public enum MagnetometerFit {
    public enum Model: String, Sendable, Equatable {
        /// Hard iron and symmetric soft iron (10-parameter quadric).
        case ellipsoid
        /// Hard iron only (4 parameters).
        case sphere
        /// No correction: the part is calibrated already (e.g. at the factory) and a hard iron
        /// would not lower the magnitude spread clearly; only the field strength is fitted.
        case asDelivered = "as-delivered"

        /// What the model found, in words for the calibration summary.
        public var summary: String {
            switch self {
            case .ellipsoid: "hard- and soft-iron fit"
            case .sphere: "hard-iron fit"
            case .asDelivered: "no correction needed: the part is calibrated already"
            }
        }
    }

    public struct Report: Sendable, Equatable {
        public var calibration: MagnetometerCalibration
        public var model: Model
        public var samplesUsed: Int
        public var outliersRejected: Int
        public var coverage: SphereCoverage
        /// Where coverage is missing, in words; nil when the sphere is covered.
        public var advice: String?
    }

    /// Fits `samples` (raw field, µT, device axes). `expectedFieldMicrotesla` is the local
    /// field strength (from the World Magnetic Model) when known.
    public static func calibrate(
        _ samples: [Vector3], expectedFieldMicrotesla: Double? = nil, fieldPointsDown: Bool = true,
        criteria: MagnetometerQualityCriteria = .standard
    ) throws(CalibrationRefusal) -> Report {
        guard samples.count >= 50 else {
            throw CalibrationRefusal(.notEnoughData, "only \(samples.count) magnetometer samples; at least 50 are needed")
        }
        // A first sphere on everything tells which directions were visited; that decides
        // whether the data can carry a soft-iron shape at all.
        guard let rough = EllipsoidFit.sphere(samples) else {
            throw CalibrationRefusal(.poorFit, "the samples do not determine a centre: turn the device through more orientations")
        }
        let roughCoverage = SphereCoverage(calibratedFields: samples.map { $0 - rough.hardIronMicrotesla })
        let advice = roughCoverage.missingRegionAdvice(fieldPointsDown: fieldPointsDown)
        if roughCoverage.percent < criteria.coveragePercent.low {
            throw CalibrationRefusal(
                .poorFit, "coverage \(format(roughCoverage.percent, 0))%" + (advice.map { ": \($0)" } ?? ""))
        }

        // A ladder of models, each kept only when it fits clearly better than the one below
        // (`minimumImprovement`): the readings as delivered, the sphere (hard iron), the
        // ellipsoid (hard and soft iron) where coverage can carry a shape and the shape is
        // plausible. A step that does not pay describes the room (field gradients, noise)
        // rather than the board, and would bend the heading instead of straightening it.
        guard let sphere = robust(samples, criteria: criteria, fit: EllipsoidFit.sphere) else {
            throw CalibrationRefusal(.poorFit, "the samples do not determine a centre: turn the device through more orientations")
        }
        var (model, fitted, kept) = (Model.sphere, sphere.model, sphere.kept)
        if let delivered = robust(samples, criteria: criteria, fit: EllipsoidFit.asDelivered),
           !criteria.paysOff(rms(sphere.model.residuals(sphere.kept)), over: rms(delivered.model.residuals(delivered.kept))) {
            (model, fitted, kept) = (.asDelivered, delivered.model, delivered.kept)
        }
        var ellipsoidFailed = false
        if roughCoverage.percent >= criteria.ellipsoidMinimumCoveragePercent {
            if let e = robust(samples, criteria: criteria, fit: EllipsoidFit.ellipsoid),
               axisRatio(e.model.softIron) <= criteria.maximumSoftIronAxisRatio {
                // Against the sphere (its rung below) even when the readings as delivered were
                // kept: the shape's five extra parameters must pay on their own.
                if criteria.paysOff(rms(e.model.residuals(e.kept)), over: rms(sphere.model.residuals(sphere.kept))) {
                    (model, fitted, kept) = (.ellipsoid, e.model, e.kept)
                }
            } else {
                ellipsoidFailed = true
            }
        }
        let outliers = samples.count - kept.count
        if Double(outliers) > criteria.maximumOutlierFraction * Double(samples.count) {
            throw CalibrationRefusal(
                .poorFit,
                "\(outliers) of \(samples.count) samples disagree with the fit: the field changed during the sweep "
                    + "(a magnet, a motor, moving iron?)")
        }

        let residualPercent = 100 * rms(fitted.residuals(kept)) / fitted.fieldMicrotesla
        let coverage = SphereCoverage(calibratedFields: kept.map { fitted.softIron * ($0 - fitted.hardIronMicrotesla) })
        let finalAdvice = coverage.missingRegionAdvice(fieldPointsDown: fieldPointsDown)
        var accuracy = try criteria.accuracy(
            residualPercent: residualPercent, coveragePercent: coverage.percent, fieldMicrotesla: fitted.fieldMicrotesla,
            expectedFieldMicrotesla: expectedFieldMicrotesla, advice: finalAdvice)
        // When the ellipsoid failed on well-covered data the soft iron is unknown (not shown
        // to be negligible), so the sphere cannot claim the top level.
        if ellipsoidFailed {
            accuracy = min(accuracy, .medium)
        }
        let calibration = MagnetometerCalibration(
            hardIronMicrotesla: fitted.hardIronMicrotesla, softIron: fitted.softIron,
            fieldMicrotesla: fitted.fieldMicrotesla, residualPercent: residualPercent,
            coveragePercent: coverage.percent, accuracy: accuracy)
        return Report(
            calibration: calibration, model: model, samplesUsed: kept.count, outliersRejected: outliers,
            coverage: coverage, advice: finalAdvice)
    }

    /// Fit, drop the samples whose residual is more than `outlierThreshold` robust standard
    /// deviations from the median, refit; until nothing changes (at most 6 rounds). Residuals
    /// are always judged against all samples, so a sample dropped early can come back once
    /// the fit has moved away from the outliers that pulled it.
    static func robust(
        _ samples: [Vector3], criteria: MagnetometerQualityCriteria,
        fit: ([Vector3]) -> MagnetometerModel?
    ) -> (model: MagnetometerModel, kept: [Vector3])? {
        var keep = [Bool](repeating: true, count: samples.count)
        for _ in 0..<6 {
            guard let m = fit(zip(samples, keep).filter(\.1).map(\.0)) else { return nil }
            let residuals = m.residuals(samples)
            let centre = median(residuals)
            let mad = median(residuals.map { abs($0 - centre) })
            // Floor the spread so noiseless data does not make every rounding error an outlier.
            let sigma = max(1.4826 * mad, 1e-6 * m.fieldMicrotesla)
            let next = residuals.map { abs($0 - centre) <= criteria.outlierThreshold * sigma }
            if next == keep { return (m, zip(samples, keep).filter(\.1).map(\.0)) }
            keep = next
        }
        // Not settled in six rounds: the model of the last selection, so the two agree.
        let kept = zip(samples, keep).filter(\.1).map(\.0)
        guard let m = fit(kept) else { return nil }
        return (m, kept)
    }

    /// Longest over shortest semi-axis of the soft-iron correction.
    static func axisRatio(_ softIron: Matrix3) -> Double {
        let values = SymmetricEigen(softIron.array).values
        guard values[0] > 0 else { return .infinity }
        return values[2] / values[0]
    }

    static func rms(_ values: [Double]) -> Double {
        (values.reduce(0) { $0 + $1 * $1 } / Double(max(1, values.count))).squareRoot()
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let n = sorted.count
        guard n > 0 else { return 0 }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}
