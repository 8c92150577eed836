import Foundation
import IMUConfigFile
import IMUGeometry

extension CalibrationFile {
    /// The file's text: TOML, commented for a person who opens it, numbers written with the
    /// shortest digits that read back to the same Double (Swift's own formatting), times in
    /// UTC to the second.
    public var tomlText: String {
        var lines = [
            "# imu calibration for \(chip).",
            "# Written by `imu calibrate`; `imu calibrate show` prints it, `imu calibrate reset` removes it.",
            "# Units: rad/s, g, µT. Accelerometer: corrected = scale ⊙ (raw − offset-g).",
            "# Magnetometer: calibrated = soft-iron · (raw − hard-iron-uT); soft-iron is symmetric, determinant 1.",
            "version = \(Self.currentVersion)",
            "# The tables below, so a file cut short is never taken for one with fewer parts.",
            "parts = [\(partNames.map(tomlString).joined(separator: ", "))]",
            "",
            "[chip]",
            "type = \(tomlString(chip.chip))",
            "board = \(tomlString(chip.board))",
            "bus = \(tomlString(chip.bus))",
            "address = \(chip.hexAddress)",
        ]
        // Each table ends with `calibrated-at`: a file cut inside a table lacks it and is refused.
        if let gyroscope {
            lines += ["", "[gyroscope]", "bias-rad-s = \(tomlVector(gyroscope.value.biasRadiansPerSecond))"]
            if let t = gyroscope.value.temperatureCelsius { lines.append("temperature-celsius = \(tomlNumber(t))") }
            lines.append("calibrated-at = \(UTCTimestamp.string(gyroscope.calibratedAt))")
        }
        if let accelerometer {
            lines += [
                "", "[accelerometer]",
                "offset-g = \(tomlVector(accelerometer.value.offsetG))",
                "scale = \(tomlVector(accelerometer.value.scale))",
                "calibrated-at = \(UTCTimestamp.string(accelerometer.calibratedAt))",
            ]
        }
        if let magnetometer {
            let m = magnetometer.value
            lines += [
                "", "[magnetometer]",
                "hard-iron-uT = \(tomlVector(m.hardIronMicrotesla))",
                "soft-iron = [",
                "    \(tomlVector(m.softIron.rows.0)),",
                "    \(tomlVector(m.softIron.rows.1)),",
                "    \(tomlVector(m.softIron.rows.2)),",
                "]",
                "field-uT = \(tomlNumber(m.fieldMicrotesla))",
                "residual-percent = \(tomlNumber(m.residualPercent))",
                "coverage-percent = \(tomlNumber(m.coveragePercent))",
                "accuracy = \(tomlString(m.accuracy.rawValue))",
                "calibrated-at = \(UTCTimestamp.string(magnetometer.calibratedAt))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

func tomlNumber(_ value: Double) -> String {
    // Swift prints the shortest round-tripping form ("0.1", "1e-05", "3.0"), all valid TOML
    // floats. Non-finite values never reach here: the fits refuse them and the types check.
    precondition(value.isFinite, "calibration values are finite")
    return "\(value)"
}

func tomlVector(_ v: Vector3) -> String {
    "[\(tomlNumber(v.x)), \(tomlNumber(v.y)), \(tomlNumber(v.z))]"
}

/// A TOML basic string, escaped.
func tomlString(_ text: String) -> String { QuotedString.toml(text) }

extension CalibrationFile {
    /// The names of the tables present, in file order.
    var partNames: [String] {
        (gyroscope == nil ? [] : ["gyroscope"]) + (accelerometer == nil ? [] : ["accelerometer"])
            + (magnetometer == nil ? [] : ["magnetometer"])
    }
}
