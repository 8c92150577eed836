import IMUConfigFile

/// Writes one flat JSON object, member by member, with the number policy of `WireNumber`:
/// `{"t":12.000000,"type":"shake","phase":"began"}`. Names are written as given (they are the
/// project's own keys); string values are escaped.
public struct JSONLine: Sendable {
    public private(set) var text = "{"
    private var empty = true

    public init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    private mutating func key(_ name: String, _ suffix: String = "") {
        if empty { empty = false } else { text += "," }
        text += "\""
        text += name
        text += suffix
        text += "\":"
    }

    public mutating func number(_ name: String, _ value: Double, _ quantity: WireQuantity) {
        key(name)
        WireNumber.append(value, quantity, to: &text)
    }

    /// null when `value` is nil.
    public mutating func number(_ name: String, _ value: Double?, _ quantity: WireQuantity) {
        key(name)
        if let value { WireNumber.append(value, quantity, to: &text) } else { text += "null" }
    }

    /// `<prefix>x`, `<prefix>y`, `<prefix>z`; nulls when `value` is nil.
    public mutating func vector(_ prefix: String, _ value: (x: Double, y: Double, z: Double)?, _ quantity: WireQuantity) {
        component(prefix, "x", value?.x, quantity)
        component(prefix, "y", value?.y, quantity)
        component(prefix, "z", value?.z, quantity)
    }

    private mutating func component(_ prefix: String, _ axis: String, _ value: Double?, _ quantity: WireQuantity) {
        key(prefix, axis)
        if let value { WireNumber.append(value, quantity, to: &text) } else { text += "null" }
    }

    public mutating func integer(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    public mutating func bool(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    /// An escaped string; null when `value` is nil.
    public mutating func string(_ name: String, _ value: String?) {
        key(name)
        text += value.map(JSONLine.quoted) ?? "null"
    }

    /// A word of the project's own vocabulary (an enum's raw value): no character needs escaping.
    public mutating func word(_ name: String, _ value: String) {
        key(name)
        text += "\""
        text += value
        text += "\""
    }

    /// A value that is JSON already (an object or array another writer made).
    public mutating func json(_ name: String, _ value: String) {
        key(name)
        text += value
    }

    /// The object, closed.
    public var line: String { text + "}" }

    /// `s` as a JSON string literal (quotes, backslashes, control characters escaped).
    public static func quoted(_ s: String) -> String { QuotedString.json(s) }

    /// A JSON array of values that are JSON already.
    public static func array(_ values: [String]) -> String { "[" + values.joined(separator: ",") + "]" }
}
