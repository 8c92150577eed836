import IMUConfigFile
import IMUWire

/// A small, bounded JSON reader for request lines (RFC 8259), and the escaping the server's own
/// lines need. Ours rather than Foundation's: every error names the byte where the text went
/// wrong and what was expected, numbers and booleans stay apart (NSNumber merges them), and the
/// nesting depth is capped so a hostile line cannot exhaust the stack.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written (a repeated name is refused by the reader).
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// What a value is, for error messages: "a string", "an array", …
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value written as compact JSON (numbers that are whole print without a fraction).
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return JSONText.number(d)
        case .string(let s): return JSONText.quoted(s)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { JSONText.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}

/// Why a line is not JSON: the byte offset (0-based) and what was expected there.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let expected: String

    public var description: String { "not JSON at byte \(offset): expected \(expected)" }
}

public enum JSONText {
    /// Deeper nesting than this is refused (requests are flat objects; 16 leaves room).
    public static let maximumDepth = 16

    /// Reads exactly one JSON value, with optional white space around it.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var reader = Reader(bytes: Array(bytes))
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.fail("the end of the line after the value") }
        return value
    }

    /// `s` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quoted(_ s: String) -> String { QuotedString.json(s) }

    /// A finite number as JSON: whole numbers without a fraction, others with Swift's shortest
    /// round-tripping digits; NaN and infinities (not JSON) as null.
    public static func number(_ d: Double) -> String { WireNumber.plain(d) }

    struct Reader {
        let bytes: [UInt8]
        var index = 0

        func fail(_ expected: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, expected: expected) }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            guard index < bytes.count else { throw fail("a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                guard depth < JSONText.maximumDepth else { throw fail("at most \(JSONText.maximumDepth) levels of nesting") }
                return try object(depth: depth + 1)
            case UInt8(ascii: "["):
                guard depth < JSONText.maximumDepth else { throw fail("at most \(JSONText.maximumDepth) levels of nesting") }
                return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw fail("a value (object, array, string, number, true, false or null)")
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw fail("\(word)") }
                index += 1
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("a member name in double quotes") }
                let nameAt = index
                let name = try string()
                if members.contains(where: { $0.0 == name }) {
                    throw JSONSyntaxError(offset: nameAt, expected: "each member name once (\(JSONText.quoted(name)) is repeated)")
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("':' after the member name") }
                index += 1
                skipSpace()
                members.append((name, try value(depth: depth)))
                skipSpace()
                guard index < bytes.count else { throw fail("',' or '}'") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw fail("',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth))
                skipSpace()
                guard index < bytes.count else { throw fail("',' or ']'") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                throw fail("',' or ']'")
            }
        }

        mutating func string() throws(JSONSyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = [UInt8]()
            func flush() throws(JSONSyntaxError) {
                guard !run.isEmpty else { return }
                // Bytes between escapes must be valid UTF-8 (RFC 8259 §8.1).
                guard let text = String(validating: run, as: UTF8.self) else { throw fail("UTF-8 text in the string") }
                scalars.append(contentsOf: text.unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
            while true {
                guard index < bytes.count else { throw fail("'\"' to end the string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flush()
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw fail("a control character written as an escape (\\n, \\u0001, …)") }
                if byte != UInt8(ascii: "\\") {
                    run.append(byte)
                    index += 1
                    continue
                }
                try flush()
                index += 1
                guard index < bytes.count else { throw fail("an escape after '\\'") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit) {
                        // A high surrogate needs its low half: \uD83D\uDE00.
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("the low surrogate (\\uDC00…\\uDFFF) after a high one")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("a low surrogate (\\uDC00…\\uDFFF)") }
                        scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    } else if (0xDC00..<0xE000).contains(unit) {
                        throw fail("a high surrogate before a low one")
                    } else {
                        scalars.append(Unicode.Scalar(unit)!)
                    }
                default:
                    index -= 1
                    throw fail("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                }
            }
        }

        mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard index < bytes.count else { throw fail("four hexadecimal digits after \\u") }
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw fail("four hexadecimal digits after \\u")
                }
                value = value * 16 + digit
                index += 1
            }
            return value
        }

        mutating func number() throws(JSONSyntaxError) -> Double {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a digit after the decimal point") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a digit in the exponent") }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            guard index - start <= 64, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)), value.isFinite else {
                index = start
                throw fail("a number of at most 64 characters within ±1.8e308")
            }
            return value
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    }
}
