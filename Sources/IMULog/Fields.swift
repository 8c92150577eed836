/// Splitting a CSV line and reading its numbers. The logs have no quoting (every field is a
/// number or empty), so a plain split on commas is the whole grammar.
enum Fields {
    static func split(_ line: String) -> [Substring] {
        line.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
    }

    /// Spaces and tabs around a field are tolerated ("1.0, 2.0" from a hand-edited file).
    static func trimmed(_ field: Substring) -> Substring {
        var field = field
        while let first = field.first, first == " " || first == "\t" { field.removeFirst() }
        while let last = field.last, last == " " || last == "\t" { field.removeLast() }
        return field
    }

    /// A number, including `nan` and `inf` (which callers then refuse with a count), or nil.
    static func number(_ field: Substring) -> Double? {
        field.isEmpty ? nil : Double(field)
    }

    /// The text of a field as an error message quotes it.
    static func quoted(_ field: Substring) -> String {
        let text = field.count > 40 ? field.prefix(40) + "…" : field
        return "\"\(text)\""
    }
}
