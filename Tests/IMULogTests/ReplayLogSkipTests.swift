import Testing
@testable import IMULog

/// Rows that parse but must never reach the fusion: skipped, counted, and the first of each
/// reason kept with its file:line.
@Suite struct ReplayLogSkipTests {
    static let header = "t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c"

    static func parse(_ rows: [String], options: ReplayLogOptions = ReplayLogOptions()) throws -> ReplayLog {
        try ReplayLog.parse("\(header)\n" + rows.map { $0 + "\n" }.joined(), name: "log.csv", options: options)
    }

    @Test("NaN and ±inf in any value: skipped and counted", arguments: ["nan", "inf", "-inf", "NaN", "infinity"])
    func nonFinite(value: String) throws {
        let log = try Self.parse([
            "0.0,0,0,-1,0,0,0,20,0,-40,25",
            "0.1,0,0,-1,\(value),0,0,20,0,-40,25",
            "0.2,0,0,-1,0,0,0,20,0,\(value),25",
            "\(value),0,0,-1,0,0,0,20,0,-40,25",
            "0.3,0,0,-1,0,0,0,20,0,-40,25",
        ])
        #expect(log.samples.map(\.timestamp) == [0.0, 0.3])
        #expect(log.report.count(.nonFinite) == 3)
        let first = try #require(log.report.firstSkipped[.nonFinite])
        #expect(first.line == 3)
        #expect(first.column == "gyr_x")
    }

    @Test("absurd values beyond 32 g, 70 rad/s, 5000 µT: skipped and counted")
    func outOfRange() throws {
        let log = try Self.parse([
            "0.0,0,0,-1,0,0,0,20,0,-40,25",
            "0.1,0,0,-32.5,0,0,0,20,0,-40,25",
            "0.2,0,0,-1,50,50,0,20,0,-40,25",
            "0.3,0,0,-1,0,0,0,4000,4000,0,25",
            "0.4,0,0,-31.9,0,0,69.9,4999,0,0,25",
        ])
        #expect(log.samples.map(\.timestamp) == [0.0, 0.4], "limits are inclusive of values just inside")
        #expect(log.report.count(.outOfRange) == 3)
        #expect(log.report.firstSkipped[.outOfRange]?.description == "log.csv:3: |acc| = 32.5 g is beyond the 32.0 g limit")
    }

    @Test("limits are options")
    func customLimits() throws {
        let log = try Self.parse(["0.0,0,0,-3,0,0,0,,,,", "0.1,0,0,-1,0,0,0,,,,"], options: ReplayLogOptions(maxAcceleration: 2))
        #expect(log.samples.map(\.timestamp) == [0.1])
    }

    @Test("duplicate and backward timestamps: skipped, counted apart, compared with the last good sample")
    func timestamps() throws {
        let log = try Self.parse([
            "1.0,0,0,-1,0,0,0,,,,",
            "1.0,0,0,-1,0,0,0,,,,",
            "0.5,0,0,-1,0,0,0,,,,",
            "1.1,0,0,-1,0,0,0,,,,",
            "1.05,0,0,-1,0,0,0,,,,",
            "1.2,0,0,-1,0,0,0,,,,",
        ])
        #expect(log.samples.map(\.timestamp) == [1.0, 1.1, 1.2])
        #expect(log.report.count(.duplicateTimestamp) == 1)
        #expect(log.report.count(.timestampBackwards) == 2)
        #expect(log.report.firstSkipped[.duplicateTimestamp]?.description == "log.csv:3: column t: t = 1.0 s is not after the previous sample's 1.0 s")
        #expect(log.report.firstSkipped[.timestampBackwards]?.line == 4)
    }

    @Test("a truncated last line (no newline, fields missing) is skipped and reported, not an error")
    func truncatedLastLine() throws {
        let text = "\(Self.header)\n0.0,0,0,-1,0,0,0,,,,\n0.1,0,0,-1,0,0,0,,,,\n0.2,0.01,0.0"
        let log = try ReplayLog.parse(text, name: "cut.csv")
        #expect(log.samples.map(\.timestamp) == [0.0, 0.1])
        #expect(log.report.count(.truncatedLastLine) == 1)
        #expect(log.report.firstSkipped[.truncatedLastLine]?.description == "cut.csv:4: the last line has no newline and is incomplete (expected 11 fields (\(Self.header)), got 3)")
    }

    @Test("a truncated last line cut inside a number is reported the same way")
    func truncatedInsideAField() throws {
        let text = "\(Self.header)\n0.0,0,0,-1,0,0,0,,,,\n0.1,0,0,-1,0,0,0,20,0,-"
        let log = try ReplayLog.parse(text, name: "cut.csv")
        #expect(log.samples.count == 1)
        #expect(log.report.count(.truncatedLastLine) == 1)
    }

    @Test("a complete last line without a newline is a sample")
    func completeLastLineWithoutNewline() throws {
        let log = try ReplayLog.parse("\(Self.header)\n0.0,0,0,-1,0,0,0,,,,\n0.1,0,0,-1,0,0,0,,,,")
        #expect(log.samples.count == 2)
        #expect(log.report.skippedTotal == 0)
    }

    @Test("the report's summary counts by reason")
    func summary() throws {
        let log = try Self.parse(["0.0,0,0,-1,0,0,0,,,,", "0.0,0,0,-1,0,0,0,,,,", "0.1,nan,0,-1,0,0,0,,,,", "0.2,0,0,-1,0,0,0,,,,"])
        #expect(
            log.report.description
                == "4 rows, 2 samples; skipped 1 NaN or infinite (first: log.csv:4: column acc_x: nan is not a finite number), 1 duplicate timestamp (first: log.csv:3: column t: t = 0.0 s is not after the previous sample's 0.0 s)")
    }
}
