/// A check run on TOML text before TOMLKit parses it, for the inputs that make its parser
/// (toml++ 3.4) stop the whole process instead of reporting an error.
///
/// toml++ asserts that a table header's name starts with a bare-key character or a quote, and
/// SwiftPM builds it with assertions on, so `[?magnetometer]` — one damaged byte in a
/// calibration file — aborted `imu` (found by Fuzz/CalibrationFileFuzz and BoardProfileFuzz).
/// Anywhere else toml++ reports such a character as a syntax error; only headers need this.
public enum TOMLPreflight {
    public struct Problem: Sendable, Equatable {
        /// 1-based.
        public var line: Int
        /// 1-based, in characters.
        public var column: Int
        public var message: String
    }

    /// The first table header whose name starts with a character toml++ cannot take, or nil.
    ///
    /// A header is a `[` at the start of a line (after spaces or tabs) outside any value: the
    /// walk follows strings (basic, literal, multi-line), comments and the brackets and braces
    /// of arrays and inline tables, so a nested array on its own line is not taken for one.
    public static func problem(in text: String) -> Problem? {
        var walk = Walk(Array(text.unicodeScalars))
        return walk.run()
    }

    private struct Walk {
        let scalars: [Unicode.Scalar]
        var i = 0
        var line = 1
        var lineStart = 0
        /// Open `[` and `{` of values (and of the header being read).
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func at(_ k: Int) -> Unicode.Scalar? { k < scalars.count ? scalars[k] : nil }

        func starts(with delimiter: String, at k: Int) -> Bool {
            var k = k
            for scalar in delimiter.unicodeScalars {
                guard at(k) == scalar else { return false }
                k += 1
            }
            return true
        }

        mutating func newline() {
            line += 1
            lineStart = i + 1
        }

        /// Only spaces and tabs between the start of the line and `k`.
        func atLineStart(_ k: Int) -> Bool {
            scalars[lineStart..<k].allSatisfy { $0 == " " || $0 == "\t" }
        }

        static func isBareKey(_ c: Unicode.Scalar) -> Bool {
            switch c {
            case "A"..."Z", "a"..."z", "0"..."9", "-", "_": true
            default: false
            }
        }

        mutating func run() -> Problem? {
            while let c = at(i) {
                switch c {
                case "\n":
                    newline()
                case "#":
                    while let next = at(i + 1), next != "\n" { i += 1 }
                case "\"", "'":
                    skipString(quote: c)
                case "[":
                    if depth == 0 && atLineStart(i), let problem = checkHeader() { return problem }
                    depth += 1
                case "{":
                    depth += 1
                case "]", "}":
                    depth = max(0, depth - 1)
                default:
                    break
                }
                i += 1
            }
            return nil
        }

        /// At a header's first `[`: what follows it (after blanks and a second `[`) must start a name.
        func checkHeader() -> Problem? {
            var k = i + 1
            func skipBlanks() { while at(k) == " " || at(k) == "\t" { k += 1 } }
            skipBlanks()
            if at(k) == "[" {
                k += 1
                skipBlanks()
            }
            guard let first = at(k) else { return nil }  // end of text: toml++ reports that
            if first == "]" || first == "\"" || first == "'" || Self.isBareKey(first) { return nil }
            let shown = first == "\n" || first == "\r" ? "the end of the line" : "'\(first)'"
            return Problem(
                line: line, column: k - lineStart + 1,
                message: "a table header needs a name after '[' (letters, digits, - and _, or a quoted name), found \(shown)")
        }

        /// Leaves `i` on the string's closing quote (or where an unclosed one-line string ends).
        mutating func skipString(quote: Unicode.Scalar) {
            let triple = String(repeating: String(quote), count: 3)
            let multiline = starts(with: triple, at: i)
            let escapes = quote == "\""
            i += multiline ? 3 : 1
            while let c = at(i) {
                if escapes && c == "\\" {
                    i += 1  // the escaped character, which may be a line break (a line-ending backslash)
                    if at(i) == "\n" { newline() }
                    i += 1
                    continue
                }
                if multiline {
                    if starts(with: triple, at: i) {
                        // Up to two more quotes may belong to the content (`""""` ends with one).
                        while at(i + 3) == quote { i += 1 }
                        i += 2
                        return
                    }
                    if c == "\n" { newline() }
                } else {
                    if c == quote { return }
                    if c == "\n" {
                        i -= 1  // unclosed: toml++ reports it; let the walk see the newline
                        return
                    }
                }
                i += 1
            }
        }
    }
}
