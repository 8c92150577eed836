#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why an IIO attribute could not be read as what it should hold: the file, what it held (or
/// the errno), and what was expected.
public struct IIOAttributeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// What the file held, or the errno's words when it could not be read.
    public var found: String
    public var expected: String

    public var description: String { "\(path): read \(found), expected \(expected)" }
}

/// Numbers from IIO sysfs attributes, validated before use: a raw count (an integer), a scale
/// or offset (a decimal such as `0.000598205`), a mount matrix (`1, 0, 0; 0, 1, 0; 0, 0, 1`).
/// The kernel prints these; a file that holds anything else is named with what it held.
public enum IIOAttributes {
    /// Whether the attribute exists (a channel or an optional `_offset`).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The attribute's text without the newline; throws when it cannot be read.
    public static func text(_ path: String) throws(IIOAttributeError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IIOAttributeError(path: path, found: errnoWords(), expected: "a readable attribute") }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 128)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw IIOAttributeError(path: path, found: errnoWords(), expected: "a readable attribute") }
        return String(decoding: bytes[..<count].prefix { $0 != 0x0A && $0 != 0 }, as: UTF8.self)
    }

    /// A finite decimal number (raw counts, scales, offsets, sampling_frequency).
    public static func number(_ path: String) throws(IIOAttributeError) -> Double {
        let text = try text(path)
        guard let value = parseNumber(text) else { throw IIOAttributeError(path: path, found: "'\(text)'", expected: "a decimal number") }
        return value
    }

    /// The attribute's number, or `fallback` when the attribute is not there (an optional
    /// `_offset`, a missing `_scale`: the ABI says the value is then already in base units).
    public static func number(_ path: String, or fallback: Double) throws(IIOAttributeError) -> Double {
        exists(path) ? try number(path) : fallback
    }

    /// A mount matrix: nine numbers, rows separated by `;`, row-major.
    public static func matrix(_ path: String) throws(IIOAttributeError) -> [Double] {
        let text = try text(path)
        guard let values = parseMatrix(text) else {
            throw IIOAttributeError(path: path, found: "'\(text)'", expected: "a 3×3 mount matrix like '1, 0, 0; 0, 1, 0; 0, 0, 1'")
        }
        return values
    }

    /// `-12`, `0.000598205`, `2.941176`: what the kernel's IIO_VAL_* formats print. Nil for
    /// anything else (empty, `nan`, hex, trailing words), and for non-finite values.
    static func parseNumber(_ text: Substring) -> Double? {
        let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        let body = String(trimmed)
        guard !body.isEmpty,
              body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }),
              let value = Double(body), value.isFinite
        else { return nil }
        return value
    }

    static func parseNumber(_ text: String) -> Double? { parseNumber(text[...]) }

    static func parseMatrix(_ text: String) -> [Double]? {
        let rows = text.split(separator: ";", omittingEmptySubsequences: false)
        guard rows.count == 3 else { return nil }
        var values: [Double] = []
        for row in rows {
            let cells = row.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else { return nil }
            for cell in cells {
                guard let value = parseNumber(cell) else { return nil }
                values.append(value)
            }
        }
        return values
    }

    private static func errnoWords() -> String {
        let code = errno
        return "errno \(code) (\(String(cString: strerror(code))))"
    }
}
