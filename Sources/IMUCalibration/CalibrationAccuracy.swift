/// How far a calibration can be trusted, with Core Motion's level names (its
/// `CMMagneticFieldCalibrationAccuracy`, less `uncalibrated`, which is the absence of one).
public enum CalibrationAccuracy: String, Sendable, CaseIterable, Comparable {
    case low, medium, high

    var rank: Int {
        switch self {
        case .low: return 0
        case .medium: return 1
        case .high: return 2
        }
    }

    public static func < (a: CalibrationAccuracy, b: CalibrationAccuracy) -> Bool { a.rank < b.rank }
}
