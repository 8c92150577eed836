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
        #expect(!result.succeeded && result.stderr.contains("the board file must be a regular file; this path is a FIFO"), "\(result)")
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

    /// A bad --http is a usage error (exit 64 with the usage), like a bad --mqtt.
    @Test func aBadHTTPAddressIsAUsageError() async throws {
        let result = try await imu("run", "--sim", "--http", "localhost", "--no-socket", "--duration", "1")
        #expect(result.status == 64 && result.stderr.contains("--http must be an address and a port like 127.0.0.1:8080, not \"localhost\""), "\(result)")
        #expect(result.stderr.contains("Usage: imu run"), "\(result)")
    }

    /// A port someone else holds is named, with how to find who and what to do.
    @Test func aBusyPortIsNamedWithTheFix() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rules = directory + "/rules.toml"
        try "[[rule]]\nname = \"q\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n".write(toFile: rules, atomically: true, encoding: .utf8)
        // Hold a loopback port: bind to port 0, then read which one the kernel gave.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try await imu("run", "--config", rules, "--sim", "--http", "127.0.0.1:\(port)", "--no-socket", "--duration", "2")
        #expect(!result.succeeded, "\(result)")
        #expect(result.stderr.contains("port \(port) is already in use") && result.stderr.contains("choose another port"), "\(result)")
        #expect(!result.stderr.contains("bind(descriptor"), "\(result)")
    }

    /// `imu run` with no rules file (none given, none installed) shares the IMU and says once
    /// that no rules are loaded; a reload then has nothing to read and says so.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/imu/rules.toml"), "an installed /etc/imu/rules.toml would be used"))
    func runWithoutARulesFileShares() async throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/imu.sock"
        let result = try await imu("run", "--sim", "--virtual-time", "--socket", socket, "--duration", "2")
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.components(separatedBy: "no rules loaded").count == 2, "\(result)")
        #expect(result.stderr.contains("rules=0") && result.stderr.contains("serving clients on \(socket)"), "\(result)")
    }
}
