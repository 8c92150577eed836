import IMUConfigFile
import IMUGeometry

/// The JSON shapes of `imu calibrate --json` (issue 5 fixes the keys; outside checks rely on
/// them). Keys are sorted so output is stable; numbers read back to the same Double.
public enum CalibrationJSON {
    /// `{"bias_rad_s":[x,y,z]}` (+ `"temperature_celsius"` when known).
    public static func gyroscope(_ c: GyroBiasCalibration) -> String {
        var object: [String: JSONValue] = ["bias_rad_s": array(c.biasRadiansPerSecond)]
        if let t = c.temperatureCelsius { object["temperature_celsius"] = .number(t) }
        return encode(object)
    }

    /// `{"offset_g":[x,y,z],"scale":[x,y,z]}`: corrected = scale ⊙ (raw − offset).
    public static func accelerometer(_ c: AccelerometerCalibration) -> String {
        encode(["offset_g": array(c.offsetG), "scale": array(c.scale)])
    }

    /// `{"hard_iron_uT":[…],"soft_iron":[[…],[…],[…]],"field_uT":…,"residual_percent":…,
    /// "coverage_percent":…,"accuracy":"low|medium|high"}`: calibrated = soft_iron · (raw − hard_iron).
    public static func magnetometer(_ c: MagnetometerCalibration) -> String {
        encode([
            "hard_iron_uT": array(c.hardIronMicrotesla),
            "soft_iron": .array([array(c.softIron.rows.0), array(c.softIron.rows.1), array(c.softIron.rows.2)]),
            "field_uT": .number(c.fieldMicrotesla),
            "residual_percent": .number(c.residualPercent),
            "coverage_percent": .number(c.coveragePercent),
            "accuracy": .string(c.accuracy.rawValue),
        ])
    }

    /// `{"error":"…"}`, for a refused calibration.
    public static func error(_ message: String) -> String { encode(["error": .string(message)]) }

    static func array(_ v: Vector3) -> JSONValue { .array([.number(v.x), .number(v.y), .number(v.z)]) }

    static func encode(_ object: [String: JSONValue]) -> String { JSONValue.object(object).text }
}

/// The little JSON these shapes need, written by hand because numbers must round-trip:
/// Swift's shortest round-tripping digits ("0.30000000000000004", "1e-05"), where
/// Foundation's JSONSerialization on Linux rounds to 15–16 significant digits.
enum JSONValue {
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    var text: String {
        switch self {
        case .number(let d):
            // JSON has no NaN or infinity; the fits never produce them, null keeps JSON valid.
            return d.isFinite ? "\(d)" : "null"
        case .string(let s):
            return quoted(s)
        case .array(let a):
            return "[" + a.map(\.text).joined(separator: ",") + "]"
        case .object(let o):
            return "{" + o.keys.sorted().map { quoted($0) + ":" + o[$0]!.text }.joined(separator: ",") + "}"
        }
    }

    private func quoted(_ s: String) -> String { QuotedString.json(s) }
}
