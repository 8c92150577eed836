/// Where each quantity sits in a replay CSV row, found by name in the header.
struct ReplayColumns {
    /// The columns every replay log has; the format fixes their order, the reader finds them by name.
    static let required = ["t", "acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z", "mag_x", "mag_y", "mag_z"]
    static let expectedHeader = required.joined(separator: ",")

    let names: [String]
    let time: Int
    let acceleration: (Int, Int, Int)
    let rotationRate: (Int, Int, Int)
    let magneticField: (Int, Int, Int)
    let temperature: Int?

    /// Reads the header line, or says what was expected instead.
    init(header: String, file: String, line: Int) throws {
        let names = Fields.split(header).map(String.init)
        func fail(_ problem: String) -> LogError {
            LogError(
                file: file, line: line,
                message: "expected the header \"\(Self.expectedHeader)\" (more columns may follow), got \(Fields.quoted(Substring(header))): \(problem)")
        }
        let missing = Self.required.filter { !names.contains($0) }
        if !missing.isEmpty {
            throw fail("missing " + missing.joined(separator: ", "))
        }
        if let duplicate = Self.required.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw fail("column \(duplicate) appears twice")
        }
        func index(_ name: String) -> Int { names.firstIndex(of: name)! }
        self.names = names
        time = index("t")
        acceleration = (index("acc_x"), index("acc_y"), index("acc_z"))
        rotationRate = (index("gyr_x"), index("gyr_y"), index("gyr_z"))
        magneticField = (index("mag_x"), index("mag_y"), index("mag_z"))
        temperature = names.firstIndex(of: "temp_c")
    }
}
