import Foundation
import Testing

/// Issue 26, point 7: the rough edges of a Pi owner's first day, each with what it says now.
@Suite struct FirstDayRoughEdgeTests {
    func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-firstday-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The unknown demo is the mistake, not the option after it.
    @Test func anUnknownDemoIsNamed() async throws {
        let result = try await imu("demo", "spin", "--sim")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("no demo named 'spin'; the demos are: tilt"), "\(result)")
        #expect(!result.stderr.contains("Unknown option"), "\(result)")
    }

    @Test func aMissingBoardFileSaysWhy() async throws {
        let result = try await imu("read", "--sim", "--board", "./nothere.toml", "--count", "1")
        #expect(!result.succeeded)
        #expect(result.stderr.contains("./nothere.toml: cannot read the board file: there is no such file"), "\(result)")
    }

    /// A FIFO at the path is refused at once (it would block the reader until someone wrote it).
    @Test func aFIFOIsNoBoardFile() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/board.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await imu("read", "--sim", "--board", fifo, "--count", "1", within: 20)
        #expect(!result.succeeded && result.stderr.contains("cannot read the board file: it is not a regular file"), "\(result)")
    }

    /// Plot names the folder that is missing (not a hidden temporary file) and says what it wrote.
    @Test func plotSaysWhatItWroteAndWhichFolderIsMissing() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/still.csv"
        let record = try await imu("record", "--sim", "--virtual-time", "--duration", "2", "--output", log)
        try #require(record.succeeded, "\(record)")
        let missing = try await imu("plot", log, "--output", directory + "/no/such/x.svg")
        #expect(!missing.succeeded)
        #expect(missing.stderr.contains("cannot write: the folder \(directory)/no/such does not exist"), "\(missing)")
        #expect(!missing.stderr.contains(".tmp"), "\(missing)")
        let plot = try await imu("plot", log, "--output", directory + "/x.svg")
        #expect(plot.succeeded && plot.stdout.hasPrefix("wrote \(directory)/x.svg: 3 panels, "), "\(plot)")
    }

    /// The compass calibration goes on until MotionCal's four goals are met, and what it saves
    /// agrees with what it showed: one coverage figure, and "high" only when the goals are met.
    @Test func magnetometerCalibrationMeetsItsGoalsBeforeSayingHigh() async throws {
        let config = try scratch()
        defer { try? FileManager.default.removeItem(atPath: config) }
        let result = try await imu("calibrate", "mag", "--sim", "--virtual-time", within: 120, environment: ["XDG_CONFIG_HOME": config])
        try #require(result.succeeded, "\(result)")
        let lines = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
        let end = try #require(lines.first { $0.hasPrefix("at the end: ") }, "\(result)")
        #expect(!end.contains("✗"), "\(end)")
        let shown = end.split(separator: " ")[4]  // "at the end: coverage 86% of 80%; …"
        let text = result.stdout
        #expect(text.contains("coverage \(shown),"), "\(result)")
        #expect(text.contains("accuracy    high") && !text.contains("below its goals"), "\(result)")
    }

    /// Cut short (a timeout before the goals), it still saves, and says plainly what it missed
    /// and what that costs; the accuracy is not "high".
    @Test func aSweepBelowItsGoalsSaysSoAndIsNotHigh() async throws {
        let config = try scratch()
        defer { try? FileManager.default.removeItem(atPath: config) }
        let result = try await imu("calibrate", "mag", "--sim", "--virtual-time", "--timeout", "40", within: 120, environment: ["XDG_CONFIG_HOME": config])
        try #require(result.succeeded, "\(result)")
        let text = result.stdout
        #expect(text.contains("below its goals: gaps "), "\(result)")
        #expect(text.contains("accuracy    medium") && text.contains("the heading can be several degrees off"), "\(result)")
    }
}
