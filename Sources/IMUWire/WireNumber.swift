/// The one number policy of every JSON line: finite numbers only (NaN and the infinities, which
/// JSON cannot say, are written `null`), never a negative zero (`-0.0004` at three decimals is
/// `0.000`: the sign of a value that rounds to zero says nothing), and a fixed count of decimals
/// per quantity (`WireQuantity`). Foundation-free: no `String(format:)`, whose C formatting is
/// most of what a line used to cost.
public enum WireNumber {
    private static let scales: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    private static let divisors: [UInt64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]
    /// Below this a scaled value is an exact integer in a Double (2^53).
    private static let exactLimit = 9_007_199_254_740_992.0

    /// `value` as JSON with the quantity's decimals.
    public static func text(_ value: Double, _ quantity: WireQuantity) -> String {
        var out = ""
        append(value, decimals: quantity.decimals, to: &out)
        return out
    }

    /// `value` as JSON with `decimals` places (0…9), null when not finite.
    public static func text(_ value: Double, decimals: Int) -> String {
        var out = ""
        append(value, decimals: decimals, to: &out)
        return out
    }

    /// `value` as fixed-point text with `decimals` places, nil when not finite (for CSV and
    /// tables, which say so in their own words).
    public static func fixed(_ value: Double, decimals: Int) -> String? {
        guard value.isFinite else { return nil }
        return text(value, decimals: decimals)
    }

    public static func append(_ value: Double, _ quantity: WireQuantity, to out: inout String) {
        append(value, decimals: quantity.decimals, to: &out)
    }

    /// Appends `value` with `decimals` places (clamped to 0…9), rounded half away from zero.
    public static func append(_ value: Double, decimals: Int, to out: inout String) {
        guard value.isFinite else {
            out += "null"
            return
        }
        let places = min(max(decimals, 0), 9)
        let magnitude = value.magnitude
        let scaled = (magnitude * scales[places]).rounded()
        if scaled < exactLimit {
            let units = UInt64(scaled)
            if units != 0, value < 0 { out += "-" }
            let whole = units / divisors[places]
            out += String(whole)
            guard places > 0 else { return }
            out += "."
            let fraction = String(units % divisors[places])
            for _ in fraction.utf8.count..<places { out += "0" }
            out += fraction
        } else if magnitude < 1.8e19 {
            // The places are beyond a Double's precision here: the whole number, zeros after.
            if value < 0 { out += "-" }
            out += String(UInt64(magnitude.rounded()))
            if places > 0 {
                out += "."
                for _ in 0..<places { out += "0" }
            }
        } else {
            // Too large for fixed notation in 20 digits: Swift's shortest form ("1e+20") is JSON.
            out += value.description
        }
    }

    /// A number of no fixed quantity (a count, a rate given by a client, an id): whole numbers
    /// without a fraction, others with the shortest digits that read back the same; null when
    /// not finite, never `-0`.
    public static func plain(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == 0 { return "0" }
        if value == value.rounded(), value.magnitude < 1e15 { return String(Int64(value)) }
        return value.description
    }
}
