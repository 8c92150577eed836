/// Where things are in a parsed TOML document, by the names a schema checker uses, so that an
/// error found after parsing (a wrong type, an unknown key, an address out of range) can name a
/// line and column.
///
/// Tables are named by their dotted path from the root (`header-pins`, `rule.action`); the
/// elements of an array of tables are numbered from 0 in file order across the whole file (the
/// third `[[rule.action]]` is index 2 whichever rule it belongs to). Keys are dotted paths
/// relative to their table (`mounting.x` inside an inline table). Answers are looked up in the
/// tree when asked, which only happens when a file is refused.
public struct TOMLLocator: Sendable {
    public typealias Position = TOMLPosition

    public let root: TOMLTable

    public init(root: TOMLTable) {
        self.root = root
    }

    /// The table `[name]` (index nil) or the `index`-th element of `[[name]]`.
    public func table(_ name: String?, index: Int? = nil) -> TOMLTable? {
        guard let name, !name.isEmpty else { return index == nil ? root : nil }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var level = [root]
        for (n, part) in parts.enumerated() {
            var next: [TOMLTable] = []
            for table in level {
                switch table[part] {
                case .table(let child)?: next.append(child)
                // Arrays of tables are walked through all their elements, in file order.
                case .array(let elements)?:
                    for case .table(let element) in elements { next.append(element) }
                default: break
                }
            }
            level = next
            if n == parts.count - 1 {
                guard let index else { return level.count == 1 ? level[0] : nil }
                return index >= 0 && index < level.count ? level[index] : nil
            }
        }
        return nil
    }

    /// The header of `[table]` (index nil) or of the `index`-th `[[table]]` (from 0).
    public func header(_ table: String, index: Int? = nil) -> Position? {
        self.table(table, index: index)?.position
    }

    /// Where `key` (a dotted path such as `mounting` or `a.b`) is defined in `table` (nil or
    /// "" for the root), in its `index`-th element if the table is an array of tables.
    public func key(_ key: String, in table: String? = nil, index: Int? = nil) -> Position? {
        guard var holder = self.table(table, index: index) else { return nil }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for part in parts.dropLast() {
            guard case .table(let child)? = holder[part] else { return nil }
            holder = child
        }
        return holder.position(of: parts[parts.count - 1])
    }

    /// The key if it is there, else its table's header, else the top of the file: the best
    /// place to point at for "missing" or "wrong" things.
    public func best(key: String?, in table: String? = nil, index: Int? = nil) -> Position {
        if let key, let p = self.key(key, in: table, index: index) { return p }
        if let table, !table.isEmpty, let p = header(table, index: index) { return p }
        return Position(line: 1, column: 1)
    }
}
