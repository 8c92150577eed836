import Testing
@testable import IMULog

/// Rows of a replay log: values, units, empty magnetometer fields, malformed rows.
@Suite struct ReplayLogRowTests {
    static let header = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c"

    static func log(_ rows: String...) -> String {
        "# chip: MPU-6050\n\(header)\n" + rows.map { $0 + "\n" }.joined()
    }

    @Test("the writer's rows become samples, field for field")
    func values() throws {
        let log = try ReplayLog.parse(Self.log(
            "0.010000,0.01000,-0.02000,-0.99000,0.00100,-0.00200,0.00300,21.500,-3.250,-40.125,24.50",
            "0.020000,0.01000,-0.02000,-0.99000,0.00100,-0.00200,0.00300,,,,"))
        #expect(log.samples.count == 2)
        let first = log.samples[0]
        #expect(first.timestamp == 0.01)
        #expect(first.acceleration == .init(0.01, -0.02, -0.99))
        #expect(first.rotationRate == .init(0.001, -0.002, 0.003))
        #expect(first.magneticField == .init(21.5, -3.25, -40.125))
        #expect(first.temperature == 24.5)
        #expect(log.samples[1].magneticField == nil, "empty mag fields: no magnetometer")
        #expect(log.samples[1].temperature == nil)
        #expect(log.report.rows == 2 && log.report.samples == 2 && log.report.skippedTotal == 0)
    }

    @Test("a non-number: file:line, the column, and what was there")
    func notANumber() throws {
        let error = try #require(throws: LogError.self) {
            try ReplayLog.parse(Self.log("0.0,0,0,-1,0,0,0,,,,", "0.1,0,abc,-1,0,0,0,,,,"), name: "log.csv")
        }
        #expect("\(error)" == "log.csv:4: column acc_y: expected a number, got \"abc\"")
    }

    @Test("a row with too few or too many fields: file:line and the count expected")
    func wrongFieldCount() throws {
        for row in ["0.1,0,0,-1,0,0,0,,,", "0.1,0,0,-1,0,0,0,,,,,"] {
            let error = try #require(throws: LogError.self) {
                try ReplayLog.parse(Self.log("0.0,0,0,-1,0,0,0,,,,", row), name: "log.csv")
            }
            let got = row.split(separator: ",", omittingEmptySubsequences: false).count
            #expect("\(error)" == "log.csv:4: expected 11 fields (\(Self.header)), got \(got)")
        }
    }

    @Test("only one or two magnetometer fields empty is malformed, not \"no magnetometer\"")
    func partialMagnetometer() throws {
        let error = try #require(throws: LogError.self) {
            try ReplayLog.parse(Self.log("0.1,0,0,-1,0,0,0,20,,-40,"), name: "log.csv")
        }
        #expect("\(error)" == "log.csv:3: column mag_y: expected a number (or all three mag fields empty), got \"\"")
    }

    @Test("lenient mode skips malformed rows, counts them and keeps the first one's message")
    func lenientSkipsMalformedRows() throws {
        let log = try ReplayLog.parse(
            Self.log("0.0,0,0,-1,0,0,0,,,,", "0.1,0,abc,-1,0,0,0,,,,", "0.2,0,0", "0.3,0,0,-1,0,0,0,,,,"),
            name: "log.csv", options: .lenient)
        #expect(log.samples.map(\.timestamp) == [0.0, 0.3])
        #expect(log.report.count(.malformedRow) == 2)
        #expect(log.report.firstSkipped[.malformedRow]?.description == "log.csv:4: column acc_y: expected a number, got \"abc\"")
        #expect(log.report.rows == 4)
    }

    @Test("a UTF-8 byte-order mark before the header is not part of the first column's name")
    func byteOrderMark() throws {
        let log = try ReplayLog.parse("\u{FEFF}\(Self.header)\n0.0,0,0,-1,0,0,0,,,,\n")
        #expect(log.columnNames.first == "t")
        #expect(log.samples.count == 1)
    }

    @Test("CRLF line endings, blank lines, spaces around fields and # lines between rows are accepted")
    func tolerantLayout() throws {
        let text = "# chip: x\r\n\(Self.header)\r\n0.0, 0, 0, -1, 0, 0, 0,,,,\r\n\r\n# pause\r\n0.1,0,0,-1,0,0,0,,,,\r\n"
        let log = try ReplayLog.parse(text)
        #expect(log.samples.map(\.timestamp) == [0.0, 0.1])
        #expect(log.metadata.chip == "x")
        #expect(log.report.rows == 2)
    }
}
