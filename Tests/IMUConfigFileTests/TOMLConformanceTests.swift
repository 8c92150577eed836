import Foundation
import Testing
@testable import IMUConfigFile

/// The TOML reader against toml-test, the language's conformance suite (BurntSushi/toml-test, the
/// copy Debian ships inside `golang-github-burntsushi-toml-dev`, which `Scripts/setup.sh --tests`
/// installs): every valid document must read to the suite's expected values, every invalid one
/// must be refused with an error (never a crash or a hang).
@Suite struct TOMLConformanceTests {
    static let suite = "/usr/share/gocode/src/github.com/BurntSushi/toml/internal/toml-test/tests"
    static var present: Bool { FileManager.default.fileExists(atPath: suite + "/valid") }

    static func cases(_ kind: String, _ ext: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: suite + "/" + kind) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix("." + ext) }.sorted()
    }

    @Test(.enabled(if: present, "toml-test is not installed (apt-get install golang-github-burntsushi-toml-dev)"))
    func validDocumentsReadToTheExpectedValues() throws {
        let names = Self.cases("valid", "toml")
        #expect(names.count >= 90)
        var failures: [String] = []
        for name in names {
            let base = Self.suite + "/valid/" + (name as NSString).deletingPathExtension
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: base + ".toml")))
            let expectedData = try Data(contentsOf: URL(fileURLWithPath: base + ".json"))
            let expected = try JSONSerialization.jsonObject(with: expectedData, options: [.fragmentsAllowed])
            do {
                let table = try TOML.parse(bytes: bytes)
                if let difference = Self.difference(.table(table), expected, path: "") {
                    failures.append("\(name): \(difference)")
                }
            } catch {
                failures.append("\(name): refused: \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(names.count) valid documents:\n\(failures.joined(separator: "\n"))")
    }

    @Test(.enabled(if: present, "toml-test is not installed (apt-get install golang-github-burntsushi-toml-dev)"))
    func invalidDocumentsAreRefused() throws {
        let names = Self.cases("invalid", "toml")
        #expect(names.count >= 200)
        var accepted: [String] = []
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.suite + "/invalid/" + name)))
            do {
                _ = try TOML.parse(bytes: bytes)
                accepted.append(name)
            } catch {
                #expect(error.position.line >= 1 && error.position.column >= 1, "\(name)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(accepted.isEmpty, "\(accepted.count) of \(names.count) invalid documents were accepted:\n\(accepted.joined(separator: "\n"))")
    }

    // MARK: - toml-test's tagged JSON

    /// Where `value` differs from toml-test's tagged JSON `expected`, or nil.
    static func difference(_ value: TOMLValue, _ expected: Any, path: String) -> String? {
        switch value {
        case .table(let table):
            guard let object = expected as? [String: Any] else { return "\(path): a table where the suite has \(expected)" }
            if Set(table.keys) != Set(object.keys) {
                return "\(path): keys \(table.keys.sorted()) where the suite has \(object.keys.sorted())"
            }
            for key in table.keys {
                if let d = difference(table[key]!, object[key]!, path: path + "." + key) { return d }
            }
            return nil
        case .array(let elements):
            guard let array = expected as? [Any], array.count == elements.count else {
                return "\(path): an array of \(elements.count) where the suite has \(expected)"
            }
            for (n, element) in elements.enumerated() {
                if let d = difference(element, array[n], path: "\(path)[\(n)]") { return d }
            }
            return nil
        default:
            guard let tagged = expected as? [String: Any], let type = tagged["type"] as? String, let text = tagged["value"] as? String else {
                return "\(path): a value where the suite has \(expected)"
            }
            let (ourType, ourText) = tag(value)
            guard ourType == type else { return "\(path): \(ourType) where the suite has \(type)" }
            switch value {
            case .float(let d):
                let e = expectedFloat(text)
                if d.isNaN && e.isNaN { return nil }
                return d == e ? nil : "\(path): \(d) where the suite has \(text)"
            case .integer(let i):
                return Int(text) == i ? nil : "\(path): \(i) where the suite has \(text)"
            case .dateTime:
                return ourText == normalisedDateTime(text) ? nil : "\(path): \(ourText) where the suite has \(text)"
            default:
                return ourText == text ? nil : "\(path): \(ourText.debugDescription) where the suite has \(text.debugDescription)"
            }
        }
    }

    static func tag(_ value: TOMLValue) -> (String, String) {
        switch value {
        case .string(let s): return ("string", s)
        case .integer(let i): return ("integer", String(i))
        case .float(let d): return ("float", String(d))
        case .boolean(let b): return ("bool", String(b))
        case .dateTime(let dt):
            let type = dt.date == nil ? "time-local" : dt.time == nil ? "date-local" : dt.offsetMinutes == nil ? "datetime-local" : "datetime"
            return (type, canonical(dt))
        default: return ("", "")
        }
    }

    static func expectedFloat(_ text: String) -> Double {
        switch text {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf": return .infinity
        case "-inf": return -.infinity
        default: return Double(text.replacingOccurrences(of: "_", with: "")) ?? .nan
        }
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `1979-05-27T07:32:00.5Z`: T and Z upper case, the fraction without trailing zeros, a zero offset as Z.
    static func canonical(_ dt: TOMLDateTime) -> String {
        var s = ""
        if let d = dt.date { s += String(format: "%04d-%@-%@", d.year, two(d.month), two(d.day)) }
        if let t = dt.time {
            if dt.date != nil { s += "T" }
            s += "\(two(t.hour)):\(two(t.minute)):\(two(t.second))"
            if t.nanosecond > 0 {
                var fraction = String(format: "%09d", t.nanosecond)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                s += "." + fraction
            }
        }
        if let offset = dt.offsetMinutes {
            s += offset == 0 ? "Z" : "\(offset < 0 ? "-" : "+")\(two(abs(offset) / 60)):\(two(abs(offset) % 60))"
        }
        return s
    }

    /// The suite's text in the same canonical form (it writes `t`, `z`, spaces and `+00:00` as the document did).
    static func normalisedDateTime(_ text: String) -> String {
        var s = text.uppercased()
        if s.count > 10, s[s.index(s.startIndex, offsetBy: 10)] == " " {
            s.replaceSubrange(s.index(s.startIndex, offsetBy: 10)...s.index(s.startIndex, offsetBy: 10), with: "T")
        }
        for zero in ["+00:00", "-00:00"] where s.hasSuffix(zero) { s = String(s.dropLast(6)) + "Z" }
        if let dot = s.firstIndex(of: ".") {
            var end = s.index(after: dot)
            while end < s.endIndex, s[end].isNumber { end = s.index(after: end) }
            var fraction = String(s[s.index(after: dot)..<end])
            while fraction.hasSuffix("0") { fraction.removeLast() }
            s.replaceSubrange(dot..<end, with: fraction.isEmpty ? "" : "." + fraction)
        }
        return s
    }
}
