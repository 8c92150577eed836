/// What `imu read --format csv` printed, taken apart: the leading `#` lines, the header, the rows.
struct CSVOutput {
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The `#` lines before the header.
    var comments: [String]
    /// The header line as printed.
    var headerLine: String
    var columns: [String]
    /// Every line after the header, split at commas.
    var rows: [[String]]

    init(_ result: IMUResult) throws {
        let lines = result.lines
        let comments = lines.prefix { $0.hasPrefix("#") }
        guard comments.count < lines.count else {
            throw Malformed(description: "no header line after the # lines in:\n\(result.stdout)\n\(result)")
        }
        self.comments = Array(comments)
        headerLine = lines[comments.count]
        columns = headerLine.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        rows = lines[(comments.count + 1)...].map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func index(of column: String) throws -> Int {
        guard let index = columns.firstIndex(of: column) else {
            throw Malformed(description: "no column \(column) in \(headerLine)")
        }
        return index
    }

    /// The column's values, one per row; every one must be a number.
    func numbers(_ column: String) throws -> [Double] {
        let index = try index(of: column)
        return try rows.enumerated().map { n, row in
            guard index < row.count, let value = Double(row[index]) else {
                throw Malformed(description: "row \(n + 1) has no number for \(column): \(row.joined(separator: ","))")
            }
            return value
        }
    }

    /// Each row's acceleration (g).
    func accelerations() throws -> [Acceleration] {
        let (x, y, z) = (try numbers("acc_x"), try numbers("acc_y"), try numbers("acc_z"))
        return x.indices.map { Acceleration(x[$0], y[$0], z[$0]) }
    }
}
