import Foundation
import IMUConfigFile

/// Just enough JSON writing for the MQTT messages (discovery, command answers): `object` and
/// `array` take values that are already JSON text.
enum JSON {
    static func string(_ s: String) -> String { QuotedString.json(s) }

    /// A number with `decimals` places ("0.1234"), null when not finite (JSON has no NaN).
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        let text = String(format: "%.\(decimals)f", value)
        // "-0.0000" reads as zero, but says a sign that is not there.
        return Double(text) == 0 ? String(format: "%.\(decimals)f", 0.0) : text
    }

    static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
