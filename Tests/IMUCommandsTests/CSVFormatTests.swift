import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu read --format csv`: the log format Docs/commands.md describes.
@Suite struct CSVFormatTests {
    static let leadingColumns = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z"
    static let magnetometerColumns = ["mag_x", "mag_y", "mag_z"]

    func read(_ chip: TwinChip, count: Int, rate: Int = 10) async throws -> CSVOutput {
        let result = try await imu(
            "read", "--sim", "--board", chip.board, "--rate", "\(rate)", "--count", "\(count)",
            "--format", "csv", "--virtual-time")
        try #require(result.succeeded, "\(result)")
        #expect(result.stdout.hasSuffix("\n"), "the last line is not ended")
        return try CSVOutput(result)
    }

    @Test("# lines, then the header, then rows with as many fields", arguments: TwinChip.allCases)
    func commentsHeaderAndRows(chip: TwinChip) async throws {
        let csv = try await read(chip, count: 20)
        #expect(!csv.comments.isEmpty)
        #expect(csv.comments.contains("# chip: \(chip.name)"))
        #expect(csv.comments.contains("# board: \(chip.board)"))
        #expect(
            csv.headerLine == Self.leadingColumns || csv.headerLine.hasPrefix(Self.leadingColumns + ","),
            "header: \(csv.headerLine)")
        let ragged = csv.rows.enumerated().filter { $0.element.count != csv.columns.count }
        #expect(ragged.isEmpty, "rows without \(csv.columns.count) fields: \(ragged.prefix(3).map { "row \($0.offset + 1): \($0.element.joined(separator: ","))" })")
    }

    @Test("--count N prints exactly N rows", arguments: [1, 7, 64])
    func countGivesExactlyThatManyRows(count: Int) async throws {
        for chip in TwinChip.allCases {
            let csv = try await read(chip, count: count)
            #expect(csv.rows.count == count, "\(chip.name)")
        }
    }

    /// Paced reads and reads through the FIFO (whose timestamps are reconstructed per batch).
    @Test("t increases strictly from row to row", arguments: TwinChip.allCases, [10, 500])
    func timestampsIncreaseStrictly(chip: TwinChip, rate: Int) async throws {
        let t = try await read(chip, count: 200, rate: rate).numbers("t")
        try #require(t.count == 200)
        let notAfter = (1..<t.count).filter { t[$0] <= t[$0 - 1] }
        #expect(notAfter.isEmpty, "t not after the previous row's: \(notAfter.prefix(3).map { "row \($0 + 1): \(t[$0 - 1]) then \(t[$0])" })")
    }

    @Test("acceleration and rotation rate are numbers in every row", arguments: TwinChip.allCases)
    func motionFieldsAreNumbers(chip: TwinChip) async throws {
        let csv = try await read(chip, count: 10)
        for column in ["acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z"] {
            #expect(try csv.numbers(column).count == 10)
        }
    }

    /// The LSM9DS1 has a magnetometer: every row has a field. The MPU-6050 has none: the mag
    /// fields are empty. At a paced rate and at a rate read through the FIFO.
    @Test("mag fields present on the LSM9DS1, empty on the MPU-6050", arguments: TwinChip.allCases, [10, 500])
    func magnetometerFields(chip: TwinChip, rate: Int) async throws {
        let csv = try await read(chip, count: 40, rate: rate)
        try #require(csv.rows.count == 40)
        for column in Self.magnetometerColumns {
            let index = try csv.index(of: column)
            let fields = csv.rows.map { index < $0.count ? $0[index] : "(missing)" }
            let wrong = fields.enumerated().filter { chip.hasMagnetometer ? Double($0.element) == nil : $0.element != "" }
            #expect(
                wrong.isEmpty,
                "\(chip.name) at \(rate) Hz: \(column) should be \(chip.hasMagnetometer ? "a number" : "empty") in every row; \(wrong.count) rows are not, e.g. \(wrong.prefix(3).map { "row \($0.offset + 1): '\($0.element)'" })")
        }
    }
}
