import Foundation

/// What every checked TOML file shares: the text is parsed once (syntax errors with their
/// position), then a decoder walks its schema and every problem is reported at the line and
/// column of the key it concerns, with what was expected. A decoder conforms by naming its file,
/// its locator and how each key's value should look; the checks come with the protocol.
public protocol TOMLSchemaDecoder {
    /// The file's path, for messages.
    var file: String { get }
    var locator: TOMLLocator { get }
    /// How each key's value should look, for "must be …" messages: `"address": "an integer like 0x68"`.
    static var expected: [String: String] { get }
}

/// A decoder of one table of a file that holds other tables too (a front end's `[mqtt]`, `[http]`,
/// `[socket]` or `[dbus]` of the rules file): made from the file's text.
public protocol TOMLTableDecoder: TOMLSchemaDecoder {
    init(file: String, locator: TOMLLocator)
}

extension TOMLTableDecoder {
    public init(text: String, file: String) throws(ConfigFileError) {
        self.init(file: file, locator: TOMLLocator(root: try Self.parseRoot(text, file: file)))
    }
}

/// Reads a configuration file as UTF-8 text, at most `TOMLLimits.configuration.maximumBytes`
/// of it (a larger file is refused before it is read whole); errors name the file.
///
/// Only a regular file is read: the path is opened without blocking and checked with fstat on
/// the open descriptor, so a FIFO, a socket or a device put in the file's place is refused at
/// once (a FIFO opened the ordinary way waits for a writer: a reload that read one would hang).
public func readConfigurationText(_ path: String, what: String) throws(ConfigFileError) -> String {
    let data = try readRegularFile(path, what: what, limit: TOMLLimits.configuration.maximumBytes)
    guard let text = String(validating: data, as: UTF8.self) else {
        throw ConfigFileError(file: path, line: 0, message: "the \(what) is not UTF-8 text")
    }
    return text
}

/// The bytes of the regular file at `path`, refused (with the path and what it is instead)
/// when it is anything else, and refused unread past `limit` bytes.
public func readRegularFile(_ path: String, what: String, limit: Int) throws(ConfigFileError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else {
        // The reason, in words: a missing file is the usual mistake (a typo in --board or --config).
        let reason = errno == ENOENT ? ": there is no such file" : " (\(String(cString: strerror(errno))))"
        throw ConfigFileError(file: path, line: 0, message: "cannot read the \(what)\(reason)")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
        throw ConfigFileError(file: path, line: 0, message: "cannot read the \(what) (\(String(cString: strerror(errno))))")
    }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG else {
        throw ConfigFileError(
            file: path, line: 0, message: "the \(what) must be a regular file; this path is \(fileKindName(kind)), not read")
    }
    guard Int(status.st_size) <= limit else {
        throw ConfigFileError(file: path, line: 0, message: "the \(what) is larger than \(limit / 1024) KiB; is it the right file?")
    }
    // Read to the end, not to st_size: the file may grow between fstat and read (still bounded).
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while bytes.count <= limit {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            throw ConfigFileError(file: path, line: 0, message: "cannot read the \(what) (\(String(cString: strerror(errno))))")
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    guard bytes.count <= limit else {
        throw ConfigFileError(file: path, line: 0, message: "the \(what) is larger than \(limit / 1024) KiB; is it the right file?")
    }
    return bytes
}

/// What a path that is not a regular file is, in the words `ls -l` readers know.
func fileKindName(_ kind: mode_t) -> String {
    switch kind {
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
}

extension TOMLSchemaDecoder {
    /// The root table of `text`, or a syntax error at its position.
    public static func parseRoot(_ text: String, file: String) throws(ConfigFileError) -> TOMLTable {
        do {
            return try TOML.parse(text)
        } catch {
            throw ConfigFileError(
                file: file, line: error.position.line, column: error.position.column, message: "TOML syntax error: \(error.message)")
        }
    }

    /// An error pointing at `key` in `table` (element `index`), or at the table, or line 1.
    public func error(_ message: String, key: String? = nil, table: String? = nil, index: Int? = nil) -> ConfigFileError {
        let p = locator.best(key: key, in: table, index: index)
        return ConfigFileError(file: file, line: p.line, column: p.column, message: message)
    }

    /// "in [[imu]] #2" style context for messages about array-of-tables elements.
    public func context(_ table: String?, _ index: Int?) -> String {
        guard let table else { return "" }
        if let index { return " in [[\(table)]] #\(index + 1)" }
        return " in [\(table)]"
    }

    /// Unknown keys are refused (a typo must not silently become "not set"); the first one
    /// in file order is reported, with the allowed keys and the nearest one.
    public func checkKeys(_ table: TOMLTable, allowed: [String], table tableName: String?, index: Int?, what: String) throws(ConfigFileError) {
        // Keys are in file order: the first unknown one is the one to report.
        guard let key = table.keys.first(where: { !allowed.contains($0) }) else { return }
        let place = tableName.map { index != nil ? "[[\($0)]]" : "[\($0)]" } ?? what
        var message = "unknown key `\(key)` in \(place) (expected one of \(allowed.sorted().joined(separator: ", ")))"
        if let near = ClosestName.suggestion(for: key, among: allowed) {
            message += "; did you mean `\(near)`?"
        }
        let p = table.position(of: key) ?? locator.best(key: key, in: tableName, index: index)
        throw ConfigFileError(file: file, line: p.line, column: p.column, message: message)
    }

    public func mustBe(_ key: String, _ value: TOMLValue, table: String?, index: Int?) -> ConfigFileError {
        let what = Self.expected[key] ?? "something else"
        return error("`\(key)`\(context(table, index)) must be \(what), found \(describe(value))", key: key, table: table, index: index)
    }

    public func describe(_ value: TOMLValue) -> String {
        switch value {
        case .string(let s): return "the string \"\(s.count > 60 ? String(s.prefix(57)) + "..." : s)\""
        case .integer(let i): return "the integer \(i)"
        case .float(let d): return "the number \(d)"
        case .boolean(let b): return "\(b)"
        case .array: return "an array"
        case .table: return "a table"
        case .dateTime: return "a date or time"
        }
    }

    public func missing(_ key: String, table: String?, index: Int?) -> ConfigFileError {
        let what = Self.expected[key] ?? "a value"
        return error("missing required key `\(key)`\(context(table, index)) (\(what))", table: table, index: index)
    }

    public func string(_ t: TOMLTable, _ key: String, required: Bool, table: String? = nil, index: Int? = nil) throws(ConfigFileError) -> String? {
        guard let v = t[key] else {
            if required { throw missing(key, table: table, index: index) }
            return nil
        }
        guard let s = v.string else { throw mustBe(key, v, table: table, index: index) }
        return s
    }

    public func integer(_ t: TOMLTable, _ key: String, required: Bool, table: String? = nil, index: Int? = nil) throws(ConfigFileError) -> Int? {
        guard let v = t[key] else {
            if required { throw missing(key, table: table, index: index) }
            return nil
        }
        guard v.type == .int, let i = v.int else { throw mustBe(key, v, table: table, index: index) }
        return i
    }

    /// A number written as an integer or a float.
    public func number(_ t: TOMLTable, _ key: String, required: Bool, table: String? = nil, index: Int? = nil) throws(ConfigFileError) -> Double? {
        guard let v = t[key] else {
            if required { throw missing(key, table: table, index: index) }
            return nil
        }
        switch v.type {
        case .int: return Double(v.int ?? 0)
        case .double:
            guard let d = v.double, d.isFinite else { throw mustBe(key, v, table: table, index: index) }
            return d
        default: throw mustBe(key, v, table: table, index: index)
        }
    }

    public func stringArray(_ t: TOMLTable, _ key: String, table: String? = nil, index: Int? = nil) throws(ConfigFileError) -> [String] {
        guard let v = t[key] else { return [] }
        guard let array = v.array else { throw mustBe(key, v, table: table, index: index) }
        var result: [String] = []
        for element in array {
            guard let s = element.string else { throw mustBe(key, element, table: table, index: index) }
            result.append(s)
        }
        return result
    }

    /// An array of tables (`[[imu]]`): each element, or [] when absent.
    public func tables(_ t: TOMLTable, _ key: String) throws(ConfigFileError) -> [TOMLTable] {
        guard let v = t[key] else { return [] }
        guard let array = v.array else { throw mustBe(key, v, table: nil, index: nil) }
        var result: [TOMLTable] = []
        for element in array {
            guard let table = element.table else { throw mustBe(key, v, table: nil, index: nil) }
            result.append(table)
        }
        return result
    }
}
