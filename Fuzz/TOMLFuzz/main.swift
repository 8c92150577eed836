import FuzzDriver
import IMUConfigFile

/// The TOML reader on arbitrary bytes: an error with a position inside the text, or a document
/// that, written back as TOML and read again, gives the same values (so what was accepted was
/// understood, not just survived).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lines = bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1
    let table: TOMLTable
    do {
        table = try TOML.parse(bytes: bytes)
    } catch {
        precondition(error.position.line >= 1 && error.position.line <= lines, "error line \(error.position.line) of \(lines)")
        precondition(error.position.column >= 1 && !error.message.isEmpty)
        return 0
    }
    let written = TOMLWriter.document(table)
    do {
        let again = try TOML.parse(written)
        precondition(TOMLWriter.same(.table(table), .table(again)), "reads back differently:\n\(written)")
    } catch {
        preconditionFailure("the written document does not read back: \(error)\n\(written)")
    }
    return 0
}

/// Writes values as inline TOML (every table inline, every string escaped): simple and total.
enum TOMLWriter {
    static func document(_ table: TOMLTable) -> String {
        table.keys.map { "\(key($0)) = \(value(table[$0]!))\n" }.joined()
    }

    static func key(_ k: String) -> String { string(k) }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func value(_ v: TOMLValue) -> String {
        switch v {
        case .string(let s): return string(s)
        case .integer(let i): return String(i)
        case .float(let d):
            if d.isNaN { return "nan" }
            if d.isInfinite { return d < 0 ? "-inf" : "inf" }
            let text = "\(d)"
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .boolean(let b): return b ? "true" : "false"
        case .dateTime(let dt):
            var s = ""
            if let d = dt.date {
                s += String(repeating: "0", count: max(0, 4 - String(d.year).count)) + "\(d.year)-\(two(d.month))-\(two(d.day))"
            }
            if let t = dt.time {
                if dt.date != nil { s += "T" }
                s += "\(two(t.hour)):\(two(t.minute)):\(two(t.second))"
                if t.nanosecond > 0 {
                    let digits = String(t.nanosecond)
                    s += "." + String(repeating: "0", count: 9 - digits.count) + digits
                }
            }
            if let o = dt.offsetMinutes { s += (o < 0 ? "-" : "+") + "\(two(abs(o) / 60)):\(two(abs(o) % 60))" }
            return s
        case .array(let elements): return "[" + elements.map(value).joined(separator: ", ") + "]"
        case .table(let t): return "{" + t.keys.map { "\(key($0)) = \(value(t[$0]!))" }.joined(separator: ", ") + "}"
        }
    }

    /// Equal values, NaN equal to NaN and keys compared in order.
    static func same(_ a: TOMLValue, _ b: TOMLValue) -> Bool {
        switch (a, b) {
        case (.float(let x), .float(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.table(let x), .table(let y)):
            return x.keys == y.keys && x.keys.allSatisfy { same(x[$0]!, y[$0]!) }
        default: return a == b
        }
    }
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
