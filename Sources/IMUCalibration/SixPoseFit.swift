import Foundation
import IMUGeometry

/// Offset and scale per axis from the mean readings of the six poses.
public enum SixPoseFit {
    /// Plausible ranges for a consumer MEMS part (MPU-6050: ±80 mg zero-g offset and ±3 %
    /// sensitivity tolerance at most; LSM9DS1: ±90 mg); anything outside means a pose was
    /// mislabelled or the device moved.
    public static let plausibleOffsetG = 0.5
    public static let plausibleScale: ClosedRange<Double> = 0.8...1.25

    /// The textbook closed form from the on-axis readings alone: for each axis, with `up` its
    /// reading when its positive end faces the floor (+1 g) and `down` the opposite pose,
    /// offset = (up + down) / 2 and scale = 2 / (up − down). Exact for perfectly aligned poses;
    /// a pose tilted by θ reads cos θ instead of 1, so a 5° tilt costs 0.4 % of scale.
    public static func closedForm(_ means: [SixPose: Vector3]) throws(CalibrationRefusal) -> AccelerometerCalibration {
        try requireAll(means)
        var offset = Vector3.zero, scale = Vector3.zero
        for axis in 0..<3 {
            let up = means[SixPose.allCases.first { $0.axis == axis && $0.sign > 0 }!]![axis]
            let down = means[SixPose.allCases.first { $0.axis == axis && $0.sign < 0 }!]![axis]
            offset[axis] = (up + down) / 2
            scale[axis] = 2 / (up - down)
        }
        return AccelerometerCalibration(offsetG: offset, scale: scale)
    }

    /// The fit used for calibration: offset and scale such that every pose's corrected
    /// reading has a magnitude of exactly 1 g, solved by Gauss–Newton from the closed form.
    /// Six poses give six equations for six unknowns, and the magnitude does not depend on how
    /// the pose was tilted, so poses held a few degrees off their axis cost no accuracy.
    public static func fit(_ means: [SixPose: Vector3]) throws(CalibrationRefusal) -> AccelerometerCalibration {
        var p = try closedForm(means)
        let readings = SixPose.allCases.map { means[$0]! }
        for _ in 0..<50 {
            // Residual r = |scale ⊙ (m − offset)|² − 1; parameters (offset xyz, scale xyz).
            var rows: [[Double]] = [], targets: [Double] = []
            for m in readings {
                let d = m - p.offsetG
                var r = -1.0
                var row = [Double](repeating: 0, count: 6)
                for i in 0..<3 {
                    let s = p.scale[i]
                    r += s * s * d[i] * d[i]
                    row[i] = -2 * s * s * d[i]
                    row[3 + i] = 2 * s * d[i] * d[i]
                }
                rows.append(row)
                targets.append(-r)
            }
            guard let step = leastSquares(rows: rows, targets: targets) else { break }
            for i in 0..<3 {
                p.offsetG[i] += step[i]
                p.scale[i] += step[3 + i]
            }
            if step.map(abs).max()! < 1e-13 { break }
        }
        try checkPlausible(p)
        return p
    }

    /// How far each pose's corrected magnitude is from 1 g, in g (what the fit left over).
    public static func residualsG(_ means: [SixPose: Vector3], _ calibration: AccelerometerCalibration) -> [SixPose: Double] {
        means.mapValues { calibration.apply(to: $0).length - 1 }
    }

    static func requireAll(_ means: [SixPose: Vector3]) throws(CalibrationRefusal) {
        let missing = SixPose.allCases.filter { means[$0] == nil }
        guard missing.isEmpty else {
            throw CalibrationRefusal(
                .notEnoughData, "poses missing: \(missing.map(\.name).joined(separator: ", "))")
        }
    }

    static func checkPlausible(_ p: AccelerometerCalibration) throws(CalibrationRefusal) {
        for axis in 0..<3 {
            guard p.offsetG[axis].isFinite, p.scale[axis].isFinite,
                  abs(p.offsetG[axis]) <= plausibleOffsetG, plausibleScale.contains(p.scale[axis])
            else {
                throw CalibrationRefusal(
                    .poorFit,
                    "implausible result on \(axisNames[axis]): offset \(format(p.offsetG[axis] * 1000, 1)) mg, "
                        + "scale \(format(p.scale[axis], 4)); were the poses the right way round and still?")
            }
        }
    }
}
