/// Where each `[table]` header and each top-level `key =` of a calibration file starts, so
/// errors found after parsing (a wrong type, a value out of range) can name a line.
/// TOMLKit gives positions only for syntax errors. The calibration format uses plain
/// `[table]` headers, bare keys and arrays that may span lines; this follows exactly that
/// (brackets and quotes tracked so a multi-line array's rows are not taken for keys). It only
/// sees text that the TOML parser has already accepted.
struct CalibrationTOMLLocator: Sendable {
    struct Position: Sendable, Equatable {
        var line: Int
        var column: Int
    }

    private var headers: [String: Position] = [:]
    /// Keyed "table.key" ("" table for the root: ".version").
    private var keys: [String: Position] = [:]

    init(text: String) {
        var table = ""
        var depth = 0
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let chars = Array(rawLine)
            var i = 0
            while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
            if depth == 0, i < chars.count {
                if chars[i] == "[" {
                    var j = i + 1
                    var name = ""
                    while j < chars.count, chars[j] != "]" { name.append(chars[j]); j += 1 }
                    table = name.trimmingSpaces
                    headers[table] = Position(line: lineNumber, column: i + 1)
                    continue
                }
                if chars[i] != "#" {
                    var j = i
                    var key = ""
                    while j < chars.count, chars[j] != "=", chars[j] != " ", chars[j] != "\t" { key.append(chars[j]); j += 1 }
                    if !key.isEmpty { keys[table + "." + key.trimmingQuotes] = Position(line: lineNumber, column: i + 1) }
                }
            }
            // Track open brackets of the value, skipping strings and comments.
            var inString: Character?
            var k = i
            while k < chars.count {
                let c = chars[k]
                if let q = inString {
                    if c == "\\" && q == "\"" { k += 2; continue }
                    if c == q { inString = nil }
                } else if c == "\"" || c == "'" {
                    inString = c
                } else if c == "#" {
                    break
                } else if c == "[" && !(depth == 0 && k == i) {
                    depth += 1
                } else if c == "]" && depth > 0 {
                    depth -= 1
                }
                k += 1
            }
        }
    }

    /// The key's position, else its table's header, else line 1.
    func best(key: String?, in table: String) -> Position {
        if let key, let p = keys[table + "." + key] { return p }
        if let p = headers[table] { return p }
        return Position(line: 1, column: 1)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }

    var trimmingQuotes: String {
        if count >= 2, (hasPrefix("\"") && hasSuffix("\"")) || (hasPrefix("'") && hasSuffix("'")) {
            return String(dropFirst().dropLast())
        }
        return self
    }
}
