/// Where things are in a TOML text, so that errors found *after* parsing (a wrong type, an
/// unknown key, an address out of range) can still name a line and column.
///
/// TOMLKit gives source positions only for syntax errors, not for values, so this walks the
/// text once and remembers where each table header and each key starts. It understands what
/// the project's files (boards, rules, calibration) use: `[table]`, `[[array-of-tables]]` (numbered from 0 in file order), bare,
/// quoted and dotted keys, inline tables (`a = { b = 1 }` records `a.b`), values spanning
/// lines (arrays, multi-line strings) and comments. It is only ever asked about text that
/// toml++ has already accepted, so it does not validate anything itself.
public struct TOMLLocator: Sendable {
    public struct Position: Sendable, Equatable {
        /// 1-based.
        public var line: Int
        /// 1-based, in characters.
        public var column: Int
    }

    /// Where `[table]` or `[[table]]` number `index` begins.
    private var headers: [Slot: Position] = [:]
    /// Where a key (dotted path relative to its table) is defined.
    private var keys: [Slot: Position] = [:]

    private struct Slot: Hashable, Sendable {
        var table: String   // "" for the root table
        var index: Int?     // the element of an array of tables
        var key: String     // "" for a header
    }

    public init(text: String) {
        var scanner = Scanner(locator: self)
        scanner.scan(text)
        self = scanner.locator
    }

    /// The header of `[table]` (index nil) or of the `index`-th `[[table]]` (from 0).
    public func header(_ table: String, index: Int? = nil) -> Position? {
        headers[Slot(table: table, index: index, key: "")]
    }

    /// Where `key` (a dotted path such as `mounting` or `a.b`) is defined in `table` (nil or
    /// "" for the root), in its `index`-th element if the table is an array of tables.
    public func key(_ key: String, in table: String? = nil, index: Int? = nil) -> Position? {
        keys[Slot(table: table ?? "", index: index, key: key)]
    }

    /// The key if it is there, else its table's header, else the top of the file: the best
    /// place to point at for "missing" or "wrong" things.
    public func best(key: String?, in table: String? = nil, index: Int? = nil) -> Position {
        if let key, let p = self.key(key, in: table, index: index) { return p }
        if let table, !table.isEmpty, let p = header(table, index: index) { return p }
        return Position(line: 1, column: 1)
    }

    // MARK: - The walk

    private struct Scanner {
        var locator: TOMLLocator
        var table = ""
        var tableIndex: Int?
        var arrayCounts: [String: Int] = [:]
        /// Open `[` / `{` of the current value; an inline table carries the key path its
        /// keys hang under (nil inside arrays, whose tables we do not name).
        var open: [Frame] = []
        var multilineString: String?   // the closing delimiter while inside one

        enum Frame { case array, inlineTable(prefix: String?) }

        init(locator: TOMLLocator) { self.locator = locator }

        mutating func scan(_ text: String) {
            var lineNumber = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lineNumber += 1
                let chars = Array(line.hasSuffix("\r") ? line.dropLast() : line)
                var i = 0
                if let closing = multilineString {
                    guard let end = find(closing, in: chars, from: 0) else { continue }
                    multilineString = nil
                    i = end + closing.count
                }
                if open.isEmpty && multilineString == nil {
                    statement(chars, from: i, line: lineNumber)
                } else {
                    value(chars, from: i, line: lineNumber)
                }
            }
        }

        /// A line at the top level: blank, comment, header or `key = value`.
        mutating func statement(_ c: [Character], from start: Int, line: Int) {
            var i = skipSpaces(c, start)
            guard i < c.count, c[i] != "#" else { return }
            if c[i] == "[" {
                let isArray = i + 1 < c.count && c[i + 1] == "["
                let column = i + 1
                i += isArray ? 2 : 1
                guard let (path, _) = keyPath(c, from: i) else { return }
                table = path
                if isArray {
                    let n = arrayCounts[path, default: 0]
                    arrayCounts[path] = n + 1
                    tableIndex = n
                } else {
                    tableIndex = nil
                }
                locator.headers[Slot(table: table, index: tableIndex, key: "")] =
                    Position(line: line, column: column)
                return
            }
            guard let (path, afterKey) = keyPath(c, from: i) else { return }
            locator.keys[Slot(table: table, index: tableIndex, key: path)] = Position(line: line, column: i + 1)
            var j = skipSpaces(c, afterKey)
            guard j < c.count, c[j] == "=" else { return }
            j = skipSpaces(c, j + 1)
            if j < c.count, c[j] == "{" {
                open.append(.inlineTable(prefix: path))
                inlineKey(c, from: j + 1, line: line)
            } else {
                value(c, from: j, line: line)
            }
        }

        /// Inside an inline table, right after `{` or `,`: a key, then its value.
        mutating func inlineKey(_ c: [Character], from start: Int, line: Int) {
            let i = skipSpaces(c, start)
            guard case .inlineTable(let prefix)? = open.last, i < c.count, c[i] != "}",
                  let (path, afterKey) = keyPath(c, from: i)
            else { return value(c, from: i, line: line) }
            let full = prefix.map { $0 + "." + path }
            if let full {
                locator.keys[Slot(table: table, index: tableIndex, key: full)] = Position(line: line, column: i + 1)
            }
            var j = skipSpaces(c, afterKey)
            if j < c.count, c[j] == "=" { j = skipSpaces(c, j + 1) }
            if j < c.count, c[j] == "{" {
                open.append(.inlineTable(prefix: full))
                return inlineKey(c, from: j + 1, line: line)
            }
            value(c, from: j, line: line)
        }

        /// The rest of a value: tracks strings, brackets and comments; hands back to
        /// `inlineKey` after each `,` that separates inline-table entries.
        mutating func value(_ c: [Character], from start: Int, line: Int) {
            var i = start
            while i < c.count {
                let ch = c[i]
                switch ch {
                case "#":
                    return
                case "\"", "'":
                    let triple = String(repeating: ch, count: 3)
                    if matches(triple, in: c, at: i) {
                        guard let end = find(triple, in: c, from: i + 3) else {
                            multilineString = triple
                            return
                        }
                        i = end + 3
                    } else {
                        i = endOfString(c, from: i)
                    }
                    continue
                case "[":
                    open.append(.array)
                case "{":
                    open.append(.inlineTable(prefix: nil))
                case "]", "}":
                    if !open.isEmpty { open.removeLast() }
                    if open.isEmpty {
                        // A top-level value ended; nothing else of interest on this line.
                        return
                    }
                case ",":
                    if case .inlineTable? = open.last { return inlineKey(c, from: i + 1, line: line) }
                default:
                    break
                }
                i += 1
            }
        }

        /// A bare, quoted or dotted key starting at `start`: its dotted path (quotes removed)
        /// and the index just after it.
        func keyPath(_ c: [Character], from start: Int) -> (String, Int)? {
            var parts: [String] = []
            var i = skipSpaces(c, start)
            while i < c.count {
                if c[i] == "\"" || c[i] == "'" {
                    let end = endOfString(c, from: i)
                    parts.append(String(c[(i + 1)..<max(i + 1, end - 1)]))
                    i = end
                } else {
                    var j = i
                    while j < c.count, c[j].isLetter || c[j].isNumber || c[j] == "_" || c[j] == "-" { j += 1 }
                    guard j > i else { return nil }
                    parts.append(String(c[i..<j]))
                    i = j
                }
                let k = skipSpaces(c, i)
                guard k < c.count, c[k] == "." else { break }
                i = skipSpaces(c, k + 1)
            }
            return parts.isEmpty ? nil : (parts.joined(separator: "."), i)
        }

        /// Index just past a one-line string that opens at `start`.
        func endOfString(_ c: [Character], from start: Int) -> Int {
            let quote = c[start]
            var i = start + 1
            while i < c.count {
                if quote == "\"" && c[i] == "\\" { i += 2; continue }
                if c[i] == quote { return i + 1 }
                i += 1
            }
            return c.count
        }

        func skipSpaces(_ c: [Character], _ start: Int) -> Int {
            var i = start
            while i < c.count, c[i] == " " || c[i] == "\t" { i += 1 }
            return i
        }

        func matches(_ s: String, in c: [Character], at i: Int) -> Bool {
            let p = Array(s)
            return i + p.count <= c.count && Array(c[i..<(i + p.count)]) == p
        }

        func find(_ s: String, in c: [Character], from start: Int) -> Int? {
            var i = start
            while i + s.count <= c.count {
                if matches(s, in: c, at: i) { return i }
                i += 1
            }
            return nil
        }
    }
}
