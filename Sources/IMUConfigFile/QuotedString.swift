/// Strings written into the files and messages imu produces, quoted and escaped: JSON
/// (RFC 8259 §7) and TOML basic strings (TOML 1.0, "String"). One routine, because the two
/// differ only in which characters beyond the control ones are escaped and the case of the hex digits.
public enum QuotedString {
    /// `"…"` with quotation mark, reverse solidus and control characters escaped (DEL and the
    /// line and paragraph separators U+2028/2029 too: a line stays one line wherever it is read,
    /// a JavaScript string included).
    public static func json(_ text: String) -> String {
        quoted(text, escapesDelete: true, uppercaseHex: false, escapesLineSeparators: true)
    }

    /// A TOML basic string: control characters (and DEL) as `\uXXXX`, except the named ones.
    public static func toml(_ text: String) -> String {
        quoted(text, escapesDelete: true, uppercaseHex: true, escapesLineSeparators: false)
    }

    private static func quoted(_ text: String, escapesDelete: Bool, uppercaseHex: Bool, escapesLineSeparators: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (escapesDelete && scalar.value == 0x7F)
                || (escapesLineSeparators && (scalar.value == 0x2028 || scalar.value == 0x2029)):
                let hex = String(scalar.value, radix: 16, uppercase: uppercaseHex)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
