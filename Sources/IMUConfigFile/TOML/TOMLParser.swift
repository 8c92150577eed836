/// A TOML 1.0 reader written for this project (toml.io/en/v1.0.0): the document's structure
/// (key/value pairs, `[table]` and `[[array of tables]]` headers, the rules on defining a table
/// or key once) is here; strings, numbers and dates are read in the files beside this one.
///
/// Why our own: the parser inside TOMLKit (toml++) stopped the process on some damaged input
/// (assertions) and leaked on every value read. This one is a single pass over the bytes that
/// throws for every malformed input, bounded by `TOMLLimits` in bytes, line length and depth, so
/// time and memory stay proportional to the text. The table-definition rules follow the model of
/// Python's `tomllib`, which the tests use as the reference: a table opened by a header, or by
/// dotted keys in a section that has ended, cannot be opened again; inline tables and arrays
/// written as values are closed for good.
public enum TOML {
    /// Parses `text` as a TOML document.
    public static func parse(_ text: String, limits: TOMLLimits = .configuration) throws(TOMLSyntaxError) -> TOMLTable {
        try parse(bytes: Array(text.utf8), limits: limits)
    }

    /// Parses UTF-8 bytes (checked: invalid UTF-8 is an error at its position).
    public static func parse(bytes: [UInt8], limits: TOMLLimits = .configuration) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = try TOMLParser(bytes: bytes, limits: limits)
        return try parser.parseDocument()
    }
}

/// A table while the document is read; frozen into `TOMLTable` at the end.
final class TableBuilder {
    enum Item {
        case value(TOMLValue)
        case table(TableBuilder)
        case tables(TableArrayBuilder)
    }

    var keys: [String] = []
    var items: [String: (item: Item, position: TOMLPosition)] = [:]
    let position: TOMLPosition
    let depth: Int
    /// Opened by a header, or by dotted keys in a section that has ended: closed to both.
    var explicit = false
    /// An inline table: closed to everything once written.
    var frozen = false

    init(position: TOMLPosition, depth: Int) {
        self.position = position
        self.depth = depth
    }

    func insert(_ key: String, _ item: Item, at position: TOMLPosition) {
        keys.append(key)
        items[key] = (item, position)
    }

    /// The immutable table (recursion bounded by `TOMLLimits.maximumDepth`).
    func build() -> TOMLTable {
        var entries: [String: TOMLTable.Entry] = [:]
        entries.reserveCapacity(keys.count)
        for key in keys {
            let (item, position) = items[key]!
            let value: TOMLValue
            switch item {
            case .value(let v): value = v
            case .table(let t): value = .table(t.build())
            case .tables(let a): value = .array(a.elements.map { .table($0.build()) })
            }
            entries[key] = TOMLTable.Entry(value: value, position: position)
        }
        return TOMLTable(keys: keys, entries: entries, position: position)
    }
}

final class TableArrayBuilder {
    var elements: [TableBuilder] = []
}

struct TOMLParser {
    let b: [UInt8]
    let limits: TOMLLimits
    var i = 0
    var line = 1
    var lineStart = 0
    /// Column cache for the current line: the column of byte `columnIndex`.
    var columnIndex = 0
    var columnValue = 1

    let root: TableBuilder
    /// The table that key/value lines go into: the root, or the last header's table.
    var section: TableBuilder
    /// Tables made by dotted keys in the current section; closed when the next header comes.
    var pendingExplicit: [TableBuilder] = []

    init(bytes: [UInt8], limits: TOMLLimits) throws(TOMLSyntaxError) {
        var bytes = bytes
        // A byte-order mark is an editor's habit, not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        try Self.checkLimits(bytes, limits)
        b = Self.withoutCarriageReturnsBeforeLineFeeds(bytes)
        self.limits = limits
        root = TableBuilder(position: TOMLPosition(line: 1, column: 1), depth: 0)
        section = root
        try checkUTF8()
    }

    // MARK: - Limits and encoding, before anything is parsed

    static func checkLimits(_ bytes: [UInt8], _ limits: TOMLLimits) throws(TOMLSyntaxError) {
        if bytes.count > limits.maximumBytes {
            throw TOMLSyntaxError(
                position: TOMLPosition(line: 1, column: 1),
                message: "the file is \(bytes.count) bytes; at most \(limits.maximumBytes) are read")
        }
        var lineNumber = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") || index == bytes.count - 1 {
            let end = byte == UInt8(ascii: "\n") ? index : index + 1
            if end - start > limits.maximumLineBytes {
                throw TOMLSyntaxError(
                    position: TOMLPosition(line: lineNumber, column: 1),
                    message: "line \(lineNumber) is \(end - start) bytes long; at most \(limits.maximumLineBytes) are read")
            }
            lineNumber += 1
            start = index + 1
        }
    }

    static func withoutCarriageReturnsBeforeLineFeeds(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "\r")) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { continue }
            out.append(byte)
        }
        return out
    }

    /// Walks the bytes once as UTF-8 (well-formed sequences only), keeping line numbers for errors.
    mutating func checkUTF8() throws(TOMLSyntaxError) {
        var k = 0
        while k < b.count {
            let lead = b[k]
            if lead == UInt8(ascii: "\n") {
                line += 1
                lineStart = k + 1
                k += 1
                continue
            }
            if lead < 0x80 { k += 1; continue }
            var length = 0
            var minimum: UInt32 = 0
            var scalar: UInt32 = 0
            switch lead {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(lead & 0x07)
            default: length = 0
            }
            var valid = length > 0 && k + length <= b.count
            if valid {
                for n in 1..<length {
                    let c = b[k + n]
                    guard c & 0xC0 == 0x80 else { valid = false; break }
                    scalar = scalar << 6 | UInt32(c & 0x3F)
                }
            }
            if valid && (scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar)) { valid = false }
            guard valid else {
                i = k
                throw error("the text is not valid UTF-8 here")
            }
            k += length
        }
        i = 0
        line = 1
        lineStart = 0
    }

    // MARK: - Positions and errors

    /// The position of byte `k` on the current line (columns count scalars, not bytes).
    mutating func position(at k: Int) -> TOMLPosition {
        if k < columnIndex || columnIndex < lineStart {
            columnIndex = lineStart
            columnValue = 1
        }
        while columnIndex < k && columnIndex < b.count {
            if b[columnIndex] & 0xC0 != 0x80 { columnValue += 1 }
            columnIndex += 1
        }
        // A continuation byte at k itself belongs to the scalar before it.
        return TOMLPosition(line: line, column: columnValue)
    }

    mutating func here() -> TOMLPosition { position(at: i) }

    mutating func error(_ message: String) -> TOMLSyntaxError {
        TOMLSyntaxError(position: here(), message: message)
    }

    mutating func error(_ message: String, at position: TOMLPosition) -> TOMLSyntaxError {
        TOMLSyntaxError(position: position, message: message)
    }

    // MARK: - Bytes

    var atEnd: Bool { i >= b.count }
    var current: UInt8? { i < b.count ? b[i] : nil }
    func peek(_ offset: Int) -> UInt8? { i + offset < b.count ? b[i + offset] : nil }

    /// What the byte at `i` is, for messages.
    var shownCurrent: String {
        guard let c = current else { return "the end of the file" }
        switch c {
        case UInt8(ascii: "\n"): return "the end of the line"
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(c)))'"
        default:
            if c >= 0x80 {
                var k = i + 1
                while k < b.count && b[k] & 0xC0 == 0x80 { k += 1 }
                return "'\(String(decoding: b[i..<k], as: UTF8.self))'"
            }
            return "the control character U+\(String(c, radix: 16, uppercase: true).leftPadded(to: 4))"
        }
    }

    mutating func newline() {
        i += 1
        line += 1
        lineStart = i
        columnIndex = i
        columnValue = 1
    }

    mutating func skipBlanks() {
        while let c = current, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { i += 1 }
    }

    /// A comment runs to the end of the line; control characters other than tab are not allowed in it.
    mutating func skipComment() throws(TOMLSyntaxError) {
        guard current == UInt8(ascii: "#") else { return }
        i += 1
        while let c = current, c != UInt8(ascii: "\n") {
            if Self.isControl(c) { throw error("a comment cannot contain \(shownCurrent)") }
            i += 1
        }
    }

    /// Blanks, comments and line breaks (inside arrays).
    mutating func skipBlanksCommentsAndNewlines() throws(TOMLSyntaxError) {
        while true {
            skipBlanks()
            if current == UInt8(ascii: "#") { try skipComment() }
            if current == UInt8(ascii: "\n") { newline(); continue }
            return
        }
    }

    /// After a key/value pair or a header: blanks, an optional comment, then a line break or the end.
    mutating func expectLineEnd(after what: String) throws(TOMLSyntaxError) {
        skipBlanks()
        try skipComment()
        guard atEnd || current == UInt8(ascii: "\n") else {
            throw error("expected the end of the line after \(what), found \(shownCurrent)")
        }
    }

    static func isControl(_ c: UInt8) -> Bool { (c < 0x20 && c != UInt8(ascii: "\t")) || c == 0x7F }

    // MARK: - The document

    mutating func parseDocument() throws(TOMLSyntaxError) -> TOMLTable {
        while true {
            skipBlanks()
            guard let c = current else { break }
            switch c {
            case UInt8(ascii: "\n"):
                newline()
                continue
            case UInt8(ascii: "#"):
                try skipComment()
                continue
            case UInt8(ascii: "["):
                try parseHeader()
            default:
                try parseKeyValue(into: section, depth: section.depth)
                try expectLineEnd(after: "a value")
            }
        }
        return root.build()
    }

    // MARK: Headers

    mutating func parseHeader() throws(TOMLSyntaxError) {
        let start = here()
        let isArray = peek(1) == UInt8(ascii: "[")
        i += isArray ? 2 : 1
        skipBlanks()
        if let c = current, !(Self.isBareKeyByte(c) || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")) {
            throw error("a table header needs a name after '[' (letters, digits, - and _, or a quoted name), found \(shownCurrent)")
        }
        let key = try parseKey()
        skipBlanks()
        if isArray {
            guard current == UInt8(ascii: "]"), peek(1) == UInt8(ascii: "]") else {
                throw error("expected ']]' to close the array-of-tables header, found \(shownCurrent)")
            }
            i += 2
        } else {
            guard current == UInt8(ascii: "]") else { throw error("expected ']' to close the table header, found \(shownCurrent)") }
            i += 1
        }
        try expectLineEnd(after: "the header")

        for table in pendingExplicit { table.explicit = true }
        pendingExplicit.removeAll()

        let name = key.map(\.name).joined(separator: ".")
        var table = root
        for part in key.dropLast() {
            table = try descendForHeader(table, part, header: name)
        }
        let last = key[key.count - 1]
        if isArray {
            let element = try newTable(in: table, at: start)
            switch table.items[last.name]?.item {
            case nil:
                let array = TableArrayBuilder()
                array.elements.append(element)
                table.insert(last.name, .tables(array), at: last.position)
            case .tables(let array):
                array.elements.append(element)
            case .table:
                throw error("[[\(name)]] names a table defined before, not an array of tables", at: last.position)
            case .value:
                throw error("[[\(name)]] names a key that already holds a value (an array written inline cannot be extended)", at: last.position)
            }
            element.explicit = true
            section = element
        } else {
            switch table.items[last.name]?.item {
            case nil:
                let created = try newTable(in: table, at: start)
                table.insert(last.name, .table(created), at: last.position)
                created.explicit = true
                section = created
            case .table(let existing):
                if existing.explicit || existing.frozen {
                    throw error("table [\(name)] is defined more than once", at: start)
                }
                existing.explicit = true
                section = existing
            case .tables:
                throw error("[\(name)] names an array of tables; write [[\(name)]] to add an element", at: start)
            case .value:
                throw error("[\(name)] names a key that already holds a value", at: start)
            }
        }
    }

    /// One step along a header's path: into a table (made if missing) or an array of tables' last element.
    mutating func descendForHeader(_ table: TableBuilder, _ part: KeyPart, header: String) throws(TOMLSyntaxError) -> TableBuilder {
        switch table.items[part.name]?.item {
        case nil:
            let created = try newTable(in: table, at: part.position)
            table.insert(part.name, .table(created), at: part.position)
            return created
        case .table(let existing):
            if existing.frozen { throw error("[\(header)] cannot extend `\(part.name)`, an inline table", at: part.position) }
            return existing
        case .tables(let array):
            return array.elements[array.elements.count - 1]
        case .value:
            throw error("[\(header)] goes through `\(part.name)`, which already holds a value", at: part.position)
        }
    }

    mutating func newTable(in parent: TableBuilder, at position: TOMLPosition) throws(TOMLSyntaxError) -> TableBuilder {
        guard parent.depth < limits.maximumDepth else {
            throw error("tables are nested deeper than \(limits.maximumDepth) levels", at: position)
        }
        return TableBuilder(position: position, depth: parent.depth + 1)
    }

    // MARK: Keys

    struct KeyPart {
        var name: String
        var position: TOMLPosition
    }

    /// A bare, quoted or dotted key.
    mutating func parseKey() throws(TOMLSyntaxError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            let position = here()
            let name: String
            switch current {
            case UInt8(ascii: "\""):
                if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
                    throw error("a key cannot be a multi-line string")
                }
                name = try parseBasicString()
            case UInt8(ascii: "'"):
                if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
                    throw error("a key cannot be a multi-line string")
                }
                name = try parseLiteralString()
            case let c? where Self.isBareKeyByte(c):
                let start = i
                while let c = current, Self.isBareKeyByte(c) { i += 1 }
                name = String(decoding: b[start..<i], as: UTF8.self)
            default:
                throw error("expected a key (letters, digits, - and _, or a quoted name), found \(shownCurrent)")
            }
            parts.append(KeyPart(name: name, position: position))
            if parts.count > limits.maximumKeyParts {
                throw error("a dotted key has more than \(limits.maximumKeyParts) parts", at: position)
            }
            skipBlanks()
            guard current == UInt8(ascii: ".") else { return parts }
            i += 1
            skipBlanks()
        }
    }

    static func isBareKeyByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    // MARK: Key/value pairs

    /// `key = value` into `table`; dotted keys make (or extend) tables on the way.
    mutating func parseKeyValue(into table: TableBuilder, depth: Int) throws(TOMLSyntaxError) {
        let key = try parseKey()
        skipBlanks()
        guard current == UInt8(ascii: "=") else {
            throw error("expected '=' after the key `\(key.map(\.name).joined(separator: "."))`, found \(shownCurrent)")
        }
        i += 1
        skipBlanks()
        var target = table
        for part in key.dropLast() {
            switch target.items[part.name]?.item {
            case nil:
                let created = try newTable(in: target, at: part.position)
                target.insert(part.name, .table(created), at: part.position)
                pendingExplicit.append(created)
                target = created
            case .table(let existing):
                if existing.explicit || existing.frozen {
                    throw error("the dotted key cannot add to `\(part.name)`, a table defined elsewhere", at: part.position)
                }
                // Once this section ends, headers and other sections cannot reopen it either.
                pendingExplicit.append(existing)
                target = existing
            case .tables:
                throw error("the dotted key cannot add to `\(part.name)`, an array of tables", at: part.position)
            case .value:
                throw error("`\(part.name)` already holds a value; a dotted key cannot make it a table", at: part.position)
            }
        }
        let last = key[key.count - 1]
        if target.items[last.name] != nil {
            throw error("the key `\(key.map(\.name).joined(separator: "."))` is defined more than once", at: last.position)
        }
        let value = try parseValue(depth: max(depth, target.depth))
        target.insert(last.name, value, at: last.position)
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(TOMLSyntaxError) -> TableBuilder.Item {
        guard let c = current else { throw error("expected a value, found the end of the file") }
        switch c {
        case UInt8(ascii: "\""):
            if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") { return .value(.string(try parseMultilineBasicString())) }
            return .value(.string(try parseBasicString()))
        case UInt8(ascii: "'"):
            if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") { return .value(.string(try parseMultilineLiteralString())) }
            return .value(.string(try parseLiteralString()))
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            if matches("true") { i += 4; return .value(.boolean(true)) }
            if matches("false") { i += 5; return .value(.boolean(false)) }
            throw error("expected a value (true, false, a number, a string, a date, [ or {), found \(shownCurrent)")
        case UInt8(ascii: "["):
            return .value(try parseArray(depth: depth + 1))
        case UInt8(ascii: "{"):
            let table = try parseInlineTable(depth: depth + 1)
            return .table(table)
        default:
            return .value(try parseNumberOrDateTime())
        }
    }

    func matches(_ word: String) -> Bool {
        var k = i
        for byte in word.utf8 {
            guard k < b.count, b[k] == byte else { return false }
            k += 1
        }
        // The word must end there (`trueish` is not `true`).
        if k < b.count, Self.isBareKeyByte(b[k]) { return false }
        return true
    }

    mutating func checkDepth(_ depth: Int) throws(TOMLSyntaxError) {
        guard depth <= limits.maximumDepth else {
            throw error("arrays and tables are nested deeper than \(limits.maximumDepth) levels")
        }
    }

    mutating func parseArray(depth: Int) throws(TOMLSyntaxError) -> TOMLValue {
        try checkDepth(depth)
        i += 1  // [
        var elements: [TOMLValue] = []
        while true {
            try skipBlanksCommentsAndNewlines()
            guard let c = current else { throw error("the array is not closed with ']'") }
            if c == UInt8(ascii: "]") {
                i += 1
                return .array(elements)
            }
            switch try parseValue(depth: depth) {
            case .value(let v): elements.append(v)
            case .table(let t): elements.append(.table(t.build()))
            case .tables: preconditionFailure("arrays of tables are only made by headers")
            }
            try skipBlanksCommentsAndNewlines()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): continue
            default: throw error("expected ',' or ']' in the array, found \(shownCurrent)")
            }
        }
    }

    /// `{ a = 1, b.c = 2 }`: on one line, no trailing comma, closed for good once written.
    mutating func parseInlineTable(depth: Int) throws(TOMLSyntaxError) -> TableBuilder {
        try checkDepth(depth)
        let table = TableBuilder(position: here(), depth: depth)
        i += 1  // {
        skipBlanks()
        if current == UInt8(ascii: "}") {
            i += 1
            table.frozen = true
            return table
        }
        while true {
            skipBlanks()
            guard let c = current, c != UInt8(ascii: "\n") else {
                throw error("an inline table must be closed with '}' on the same line")
            }
            if c == UInt8(ascii: "}") { throw error("an inline table cannot end with a comma") }
            try parseKeyValue(into: table, depth: depth)
            skipBlanks()
            switch current {
            case UInt8(ascii: ","):
                i += 1
            case UInt8(ascii: "}"):
                i += 1
                freeze(table)
                return table
            default:
                throw error("expected ',' or '}' in the inline table, found \(shownCurrent)")
            }
        }
    }

    /// An inline table and the tables its dotted keys made are closed for good.
    func freeze(_ table: TableBuilder) {
        table.frozen = true
        for key in table.keys {
            if case .table(let child)? = table.items[key]?.item, !child.frozen { freeze(child) }
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
