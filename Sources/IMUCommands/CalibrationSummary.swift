import Foundation
import IMUCalibration
import IMUFormats
import IMUGeometry

/// `imu calibrate show`'s words for one stored file: each part in the units a person reads
/// (°/s, mg, µT, %) and when it was made; the file's own TOML stays one flag away (`--toml`).
enum CalibrationSummary {
    static func lines(_ file: CalibrationFile) -> [String] {
        var lines: [String] = []
        let degrees = 180 / Double.pi
        func xyz(_ v: Vector3, _ places: Int) -> String {
            "x \(number(v.x, places))  y \(number(v.y, places))  z \(number(v.z, places))"
        }
        func made(_ date: Date) -> String { "calibrated " + UTCTimestamp.string(date) }
        if let g = file.gyroscope {
            let temperature = g.value.temperatureCelsius.map { " at \(number($0, 1)) °C" } ?? ""
            lines.append("  gyroscope      bias \(xyz(g.value.biasRadiansPerSecond * degrees, 2)) °/s\(temperature); \(made(g.calibratedAt))")
        }
        if let a = file.accelerometer {
            lines.append("  accelerometer  offset \(xyz(a.value.offsetG * 1000, 1)) mg; scale \(xyz(a.value.scale, 4)); \(made(a.calibratedAt))")
        }
        if let m = file.magnetometer {
            let c = m.value
            lines.append("  magnetometer   hard iron \(xyz(c.hardIronMicrotesla, 1)) µT; field \(number(c.fieldMicrotesla, 1)) µT;"
                + " residual \(number(c.residualPercent, 1))%; coverage \(number(c.coveragePercent, 0))%; accuracy \(c.accuracy.rawValue);"
                + " \(made(m.calibratedAt))")
        }
        if lines.isEmpty { lines.append("  (no parts)") }
        return lines
    }
}
