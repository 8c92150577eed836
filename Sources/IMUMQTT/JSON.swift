import IMUConfigFile
import IMUWire

/// Just enough JSON writing for the MQTT messages (discovery, command answers): `object` and
/// `array` take values that are already JSON text.
enum JSON {
    static func string(_ s: String) -> String { QuotedString.json(s) }

    /// A number with its quantity's decimals, null when not finite (`WireNumber`'s policy).
    static func number(_ value: Double, _ quantity: WireQuantity) -> String { WireNumber.text(value, quantity) }

    static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }

    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
