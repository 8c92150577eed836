import Foundation
import IMUConfigFile
import IMUGeometry

extension CalibrationFile {
    /// Validates calibration-file text. With `expecting`, the file must be for that chip.
    /// Every value is checked (type, range, finiteness) before anything is returned: a file
    /// is used whole or not at all. `file` only appears in error messages.
    public static func parse(
        _ text: String, file: String, expecting chip: ChipIdentity? = nil
    ) throws(CalibrationFileError) -> CalibrationFile {
        try CalibrationFileDecoder(text: text, file: file).decode(expecting: chip)
    }
}

/// The format's checks, in the order a reader meets them.
struct CalibrationFileDecoder: TOMLSchemaDecoder {
    let file: String
    let locator: TOMLLocator

    init(text: String, file: String) throws(CalibrationFileError) {
        self.file = file
        do {
            self.locator = TOMLLocator(root: try TOML.parse(text))
        } catch {
            throw CalibrationFileError(
                file: file, line: error.position.line, column: error.position.column,
                message: "TOML syntax error: \(error.message) (the file is damaged or was cut short)")
        }
    }

    static let rootKeys = ["version", "parts", "chip", "gyroscope", "accelerometer", "magnetometer"]
    static let chipKeys = ["type", "board", "bus", "address"]
    static let gyroscopeKeys = ["bias-rad-s", "temperature-celsius", "calibrated-at"]
    static let accelerometerKeys = ["offset-g", "scale", "calibrated-at"]
    static let magnetometerKeys = [
        "hard-iron-uT", "soft-iron", "field-uT", "residual-percent", "coverage-percent", "accuracy", "calibrated-at",
    ]

    /// The calibration format's messages say what is expected where they are raised.
    static let expected: [String: String] = [:]

    func decode(expecting expected: ChipIdentity?) throws(CalibrationFileError) -> CalibrationFile {
        let root = locator.root
        try checkKeys(root, allowed: Self.rootKeys, table: nil, index: nil, what: "the file")

        guard let versionValue = root["version"] else {
            throw self.error("missing `version` (this file was not written by imu, or is cut short)")
        }
        guard versionValue.type == .int, let version = versionValue.int else {
            throw self.error("`version` must be an integer like \(CalibrationFile.currentVersion)", key: "version")
        }
        guard version == CalibrationFile.currentVersion else {
            let why = version > CalibrationFile.currentVersion
                ? "written by a newer imu" : "an old format"
            throw self.error(
                "calibration format version \(version) (\(why)); this imu reads version \(CalibrationFile.currentVersion)",
                key: "version")
        }

        let chipTable = try table(root, "chip", required: true)!
        try checkKeys(chipTable, allowed: Self.chipKeys, table: "chip", index: nil, what: "[chip]")
        let chip = ChipIdentity(
            chip: try string(chipTable, "type", table: "chip"),
            board: try string(chipTable, "board", table: "chip"),
            bus: try string(chipTable, "bus", table: "chip"),
            address: try integer(chipTable, "address", table: "chip", range: 0...0x7F, what: "a 7-bit I²C address like 0x6a"))
        if let expected, expected != chip {
            throw self.error("this calibration is for \(chip), not \(expected)", table: "chip")
        }

        try checkParts(root)
        var result = CalibrationFile(chip: chip)
        if let t = try table(root, "gyroscope", required: false) {
            try checkKeys(t, allowed: Self.gyroscopeKeys, table: "gyroscope", index: nil, what: "[gyroscope]")
            let bias = try vector(t, "bias-rad-s", table: "gyroscope", limit: GyroBiasEstimator.plausibleBiasRadiansPerSecond,
                                  what: "rad/s, each within ±0.52 (30 °/s)")
            let temperature = t["temperature-celsius"] == nil
                ? nil : try number(t, "temperature-celsius", table: "gyroscope", range: -40...125, what: "°C, −40 to 125")
            result.gyroscope = .init(
                GyroBiasCalibration(biasRadiansPerSecond: bias, temperatureCelsius: temperature),
                calibratedAt: try timestamp(t, table: "gyroscope"))
        }
        if let t = try table(root, "accelerometer", required: false) {
            try checkKeys(t, allowed: Self.accelerometerKeys, table: "accelerometer", index: nil, what: "[accelerometer]")
            let offset = try vector(t, "offset-g", table: "accelerometer", limit: SixPoseFit.plausibleOffsetG,
                                    what: "g, each within ±\(SixPoseFit.plausibleOffsetG)")
            let scale = try vector(t, "scale", table: "accelerometer", range: SixPoseFit.plausibleScale,
                                   what: "multipliers, each from \(SixPoseFit.plausibleScale.lowerBound) to \(SixPoseFit.plausibleScale.upperBound)")
            result.accelerometer = .init(
                AccelerometerCalibration(offsetG: offset, scale: scale), calibratedAt: try timestamp(t, table: "accelerometer"))
        }
        if let t = try table(root, "magnetometer", required: false) {
            try checkKeys(t, allowed: Self.magnetometerKeys, table: "magnetometer", index: nil, what: "[magnetometer]")
            let table = "magnetometer"
            let hardIron = try vector(t, "hard-iron-uT", table: table, limit: 2000, what: "µT, each within ±2000")
            let softIron = try softIronMatrix(t, table: table)
            let field = try number(t, "field-uT", table: table, range: 5...200, what: "µT, from 5 to 200")
            let residual = try number(t, "residual-percent", table: table, range: 0...100, what: "a percentage, 0 to 100")
            let coverage = try number(t, "coverage-percent", table: table, range: 0...100, what: "a percentage, 0 to 100")
            let accuracyText = try string(t, "accuracy", table: table)
            guard let accuracy = CalibrationAccuracy(rawValue: accuracyText) else {
                throw error("`accuracy` in [magnetometer] must be \"low\", \"medium\" or \"high\", found \"\(accuracyText)\"",
                            key: "accuracy", table: table)
            }
            result.magnetometer = .init(
                MagnetometerCalibration(
                    hardIronMicrotesla: hardIron, softIron: softIron, fieldMicrotesla: field,
                    residualPercent: residual, coveragePercent: coverage, accuracy: accuracy),
                calibratedAt: try timestamp(t, table: table))
        }
        return result
    }

    /// `parts` lists the tables the writer put in; each must be there and nothing else.
    /// (TOML itself cannot tell a file cut between two tables from a shorter file.)
    func checkParts(_ root: TOMLTable) throws(CalibrationFileError) {
        let known = ["gyroscope", "accelerometer", "magnetometer"]
        guard let v = root["parts"] else { throw error("missing `parts` (the list of calibrated sensors)") }
        let bad = error("`parts` must list some of \(known.map { "\"\($0)\"" }.joined(separator: ", ")), each once", key: "parts")
        guard let array = v.array else { throw bad }
        var listed: [String] = []
        for element in array {
            guard let name = element.string, known.contains(name), !listed.contains(name) else { throw bad }
            listed.append(name)
        }
        for name in known {
            let present = root[name] != nil
            if listed.contains(name) && !present {
                throw error("[\(name)] is listed in `parts` but missing: the file is cut short or damaged", key: "parts")
            }
            if !listed.contains(name) && present {
                throw error("[\(name)] is not listed in `parts`", table: name)
            }
        }
    }

    // MARK: Typed values

    func table(_ root: TOMLTable, _ key: String, required: Bool) throws(CalibrationFileError) -> TOMLTable? {
        guard let v = root[key] else {
            if required { throw error("missing table [\(key)]") }
            return nil
        }
        guard let t = v.table else { throw error("`\(key)` must be a table, written [\(key)]", key: key) }
        return t
    }

    func value(_ t: TOMLTable, _ key: String, table: String) throws(CalibrationFileError) -> TOMLValue {
        guard let v = t[key] else { throw error("missing `\(key)` in [\(table)]", table: table) }
        return v
    }

    func string(_ t: TOMLTable, _ key: String, table: String) throws(CalibrationFileError) -> String {
        let v = try value(t, key, table: table)
        guard let s = v.string else { throw error("`\(key)` in [\(table)] must be a string", key: key, table: table) }
        return s
    }

    func integer(_ t: TOMLTable, _ key: String, table: String, range: ClosedRange<Int>, what: String) throws(CalibrationFileError) -> Int {
        let v = try value(t, key, table: table)
        guard v.type == .int, let i = v.int, range.contains(i) else {
            throw error("`\(key)` in [\(table)] must be \(what)", key: key, table: table)
        }
        return i
    }

    /// A TOML float or integer (a hand-written `scale = [1, 1, 1]` is fine).
    func double(_ v: TOMLValue) -> Double? {
        if v.type == .double { return v.double }
        if v.type == .int { return v.int.map(Double.init) }
        return nil
    }

    func number(_ t: TOMLTable, _ key: String, table: String, range: ClosedRange<Double>, what: String) throws(CalibrationFileError) -> Double {
        let v = try value(t, key, table: table)
        guard let d = double(v), d.isFinite, range.contains(d) else {
            throw error("`\(key)` in [\(table)] must be a number: \(what)", key: key, table: table)
        }
        return d
    }

    func vector(
        _ t: TOMLTable, _ key: String, table: String, limit: Double? = nil, range: ClosedRange<Double>? = nil, what: String
    ) throws(CalibrationFileError) -> Vector3 {
        let v = try value(t, key, table: table)
        let bad = error("`\(key)` in [\(table)] must be an array of three numbers [x, y, z] in \(what)", key: key, table: table)
        guard let array = v.array, array.count == 3 else { throw bad }
        var out = Vector3.zero
        for i in 0..<3 {
            guard let d = double(array[i]), d.isFinite else { throw bad }
            if let limit, abs(d) > limit { throw bad }
            if let range, !range.contains(d) { throw bad }
            out[i] = d
        }
        return out
    }

    func softIronMatrix(_ t: TOMLTable, table: String) throws(CalibrationFileError) -> Matrix3 {
        let key = "soft-iron"
        let v = try value(t, key, table: table)
        let bad = error("`soft-iron` in [magnetometer] must be three rows of three numbers [[…], […], […]]", key: key, table: table)
        guard let rows = v.array, rows.count == 3 else { throw bad }
        var m = [[Double]]()
        for r in 0..<3 {
            guard let row = rows[r].array, row.count == 3 else { throw bad }
            var values = [Double]()
            for c in 0..<3 {
                guard let d = double(row[c]), d.isFinite, abs(d) <= 10 else { throw bad }
                values.append(d)
            }
            m.append(values)
        }
        let matrix = Matrix3(array: m)
        guard matrix.isSymmetric else { throw error("`soft-iron` in [magnetometer] must be symmetric", key: key, table: table) }
        let eigen = SymmetricEigen(m)
        guard eigen.values[0] > 0, abs(matrix.determinant - 1) <= 1e-6 else {
            throw error(
                "`soft-iron` in [magnetometer] must be positive definite with determinant 1 (found determinant "
                    + "\(matrix.determinant))", key: key, table: table)
        }
        return matrix
    }

    func timestamp(_ t: TOMLTable, table: String) throws(CalibrationFileError) -> Date {
        let key = "calibrated-at"
        let v = try value(t, key, table: table)
        guard let dt = v.dateTime, let date = dt.date, let time = dt.time, let offset = dt.offsetMinutes else {
            throw error("`calibrated-at` in [\(table)] must be a date and time with its offset, like 2026-11-22T06:43:27Z",
                        key: key, table: table)
        }
        let seconds = UTCTimestamp.seconds(
            year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
            second: time.second, offsetMinutes: offset)
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
