import IMUGeometry

/// A magnetometer's hard and soft iron, and how good the fit that found them was:
/// calibrated = softIron · (raw − hardIron), field in µT. The soft-iron matrix is symmetric
/// with determinant 1 (it reshapes the ellipsoid into a sphere without changing its volume),
/// so calibrated readings have the magnitude `fieldMicrotesla`, the geometric mean of the
/// ellipsoid's semi-axes.
public struct MagnetometerCalibration: Sendable, Equatable {
    public var hardIronMicrotesla: Vector3
    public var softIron: Matrix3
    /// The field strength the calibrated readings have.
    public var fieldMicrotesla: Double
    /// RMS deviation of the calibrated magnitude from `fieldMicrotesla`, % of it.
    public var residualPercent: Double
    /// Share of the sphere of directions the samples covered, 0–100.
    public var coveragePercent: Double
    public var accuracy: CalibrationAccuracy

    public init(
        hardIronMicrotesla: Vector3, softIron: Matrix3, fieldMicrotesla: Double,
        residualPercent: Double, coveragePercent: Double, accuracy: CalibrationAccuracy
    ) {
        self.hardIronMicrotesla = hardIronMicrotesla
        self.softIron = softIron
        self.fieldMicrotesla = fieldMicrotesla
        self.residualPercent = residualPercent
        self.coveragePercent = coveragePercent
        self.accuracy = accuracy
    }

    /// The calibrated field, µT.
    public func apply(to rawMicrotesla: Vector3) -> Vector3 {
        softIron * (rawMicrotesla - hardIronMicrotesla)
    }
}
