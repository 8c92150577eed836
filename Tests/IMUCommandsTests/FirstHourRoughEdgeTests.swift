import Foundation
import IMUTilt
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// Issue 18, point 7: each rough edge a newcomer hit in the first hour, with the message and the
/// exit status it has now.
@Suite struct FirstHourRoughEdgeTests {
    static let commands = [
        [], ["probe"], ["read"], ["record"], ["plot"], ["replay"], ["stream"], ["events"], ["demo"], ["demo", "tilt"],
        ["calibrate"], ["calibrate", "gyro"], ["calibrate", "accel"], ["calibrate", "mag"], ["calibrate", "show"],
        ["calibrate", "reset"], ["run"], ["token"], ["bench"], ["soak"],
    ]

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-edges-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// At 80 columns every line of every help fits, and no example command is broken across
    /// lines (a continuation is indented as a shell continuation is).
    @Test(arguments: commands)
    func helpFitsEightyColumns(command: [String]) async throws {
        let help = try await IMUProcess(command + ["--help"], environment: ["COLUMNS": "80"]).finish(within: 30)
        #expect(help.succeeded, "\(help)")
        let lines = help.lines
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        for (line, next) in zip(lines, lines.dropFirst()) where line.hasPrefix("  imu ") {
            #expect(next.isEmpty || next.hasPrefix("  imu ") || next.hasPrefix("      ") || next.hasPrefix("  "),
                    "an example broken across lines: \(line) / \(next)")
        }
    }

    @Test func version() async throws {
        let result = try await imu("--version")
        #expect(result.succeeded && result.stdout == IMUCommand.version + "\n", "\(result)")
        #expect(result.stdout.hasPrefix("imu "))
    }

    /// A negative number is the option's value, not an unknown option: the range is named.
    @Test(arguments: [["stream", "--sim", "--rate", "-5"], ["record", "--sim", "--output", "/dev/null", "--rate", "-5"], ["run", "--sim", "--rate", "-5"]])
    func negativeRate(arguments: [String]) async throws {
        let result = try await IMUProcess(arguments, environment: [:]).finish(within: 30)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--rate must be between") && result.stderr.contains("not -5.0"), "\(result)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test func eventsAsCSV() async throws {
        let result = try await imu("events", "--sim", "shake", "--virtual-time", "--duration", "6", "--format", "csv")
        #expect(result.succeeded, "\(result)")
        #expect(result.lines.first == "t,type,detail")
        #expect(result.lines.contains { $0.hasSuffix(",shake,began") } && result.lines.contains { $0.hasSuffix(",shake,ended") }, "\(result.stdout)")
        #expect(result.lines.dropFirst().allSatisfy { $0.split(separator: ",").count == 3 && Double($0.split(separator: ",")[0]) != nil })
    }

    /// A directory, a missing file: words that name it, not Foundation's error domains.
    @Test func filesInWords() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in [["replay", directory.path], ["plot", directory.path, "--output", "/dev/null"], ["events", "--replay", directory.path]] {
            let result = try await IMUProcess(command, environment: [:]).finish(within: 30)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("\(directory.path) is a directory, not a log file"), "\(result)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain") && !result.stderr.contains("Error Domain"))
        }
        let missing = try await imu("replay", directory.appendingPathComponent("nothing.csv").path)
        #expect(missing.status == 1 && missing.stderr.contains("no such file: "), "\(missing)")
    }

    /// `gpio-line` naming a line the chip does not have: file:line of the rule, the name, the
    /// chip, and what lines are called.
    @Test func unknownGPIOLineNamesTheFileAndLine() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = directory.appendingPathComponent("rules.toml")
        try "# relay\n\n[[rule]]\nname = \"relay\"\non = \"shake\"\n  [[rule.action]]\n  gpio-line = \"GPIO99\"\n  set = \"high\"\n"
            .write(to: rules, atomically: true, encoding: .utf8)
        let result = try await imu("run", "--config", rules.path, "--sim", "--virtual-time", "--duration", "1")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("\(rules.path):3: rule \"relay\": gpio-line = \"GPIO99\" is not a line of"), "\(result)")
        #expect(result.stderr.contains("GPIO0 to GPIO27"))
    }

    /// A log with its header and no samples: the same error, exit 1, from every reader.
    @Test func headerOnlyLogIsTheSameErrorEverywhere() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let full = directory.appendingPathComponent("full.csv").path, empty = directory.appendingPathComponent("empty.csv").path
        let recorded = try await imu("record", "--sim", "--virtual-time", "--duration", "1", "--output", full)
        try #require(recorded.succeeded, "\(recorded)")
        let header = try String(contentsOfFile: full, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("t,") }
        try (header.joined(separator: "\n") + "\n").write(toFile: empty, atomically: true, encoding: .utf8)
        for command in [["replay", empty], ["events", "--replay", empty], ["plot", empty, "--output", directory.appendingPathComponent("x.svg").path],
                        ["calibrate", "gyro", "--replay", empty, "--no-save"]] {
            let result = try await IMUProcess(command, environment: [:]).finish(within: 30)
            #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.contains("\(empty) holds no samples (a header only)"), "\(result)")
        }
    }

    @Test(arguments: ["150", "0", "-10"])
    func coverageBeyondAHundredIsRefused(coverage: String) async throws {
        let result = try await imu("calibrate", "mag", "--sim", "--coverage", coverage, "--virtual-time")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("--coverage must be more than 0 and at most 100"), "\(result)")
        #expect(result.stderr.contains("Usage: imu calibrate mag"))
    }

    /// The usage shown is the command's own, with the latitude named.
    @Test func latitudeBeyondNinetyShowsTheCommandsUsage() async throws {
        for command in [["stream", "--sim", "--frame", "xTrueNorthZVertical", "--location", "95,10"], ["calibrate", "mag", "--sim", "--location", "95,10"], ["run", "--sim", "--location", "95,10"]] {
            let result = try await IMUProcess(command, environment: [:]).finish(within: 30)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("latitude 95 is beyond ±90°"), "\(result)")
            #expect(result.stderr.contains("Usage: imu \(command[0])") && !result.stderr.contains("<subcommand>"), "\(result)")
        }
        // The southern hemisphere's negative latitude is a value, not an option.
        let south = try await imu("stream", "--sim", "--frame", "xTrueNorthZVertical", "--location", "-33.87,151.21", "--virtual-time", "--count", "5", "--format", "csv")
        #expect(south.succeeded, "\(south)")
    }

    @Test func tiltAngleHasItsUnitAfterTheNumber() {
        let push = Push(angle: -166.5 * .pi / 180, magnitude: 0.5)
        let status = TiltDemoView.status(push: push, tiltDegrees: 10)
        #expect(status.contains("angle -166.5° ("), "\(status)")
        #expect(TiltDemoView.status(push: Push(angle: 12.3 * .pi / 180, magnitude: 0.5), tiltDegrees: 10).contains("angle   12.3° ("))
    }

    /// Header pins 27 and 28 (the HAT ID EEPROM's bus): accepted, with a warning naming the rule.
    @Test(arguments: [("gpio-pin = 27", "27 (GPIO0, ID_SD)"), ("gpio-pin = 28", "28 (GPIO1, ID_SC)")])
    func hatIDPinsAreWarned(action: String, named: String) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = directory.appendingPathComponent("rules.toml")
        try "[[rule]]\nname = \"id pin\"\non = \"shake\"\n  [[rule.action]]\n  \(action)\n  set = \"high\"\n".write(to: rules, atomically: true, encoding: .utf8)
        let result = try await imu("run", "--config", rules.path, "--sim", "--virtual-time", "--duration", "1")
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.contains("warning: rule \"id pin\" drives header pin \(named): it carries the HAT ID EEPROM's I²C bus"), "\(result)")
    }

    /// The Sense HAT's INT lines go to its ATtiny88: no advice to add an interrupt pin.
    @Test func senseHATLowPowerSaysWhy() async throws {
        let result = try await imu("events", "--sim", "--board", "sense-hat", "--low-power", "--virtual-time", "--duration", "1")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("ATtiny88") && result.stderr.contains("run without --low-power"), "\(result)")
        #expect(!result.stderr.contains("add interrupt-pin"))
    }

    /// The accelerometer's prompt and progress speak one vocabulary.
    @Test func accelerometerPromptAndProgressAgree() async throws {
        let config = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try await imu("calibrate", "accel", "--sim", "--virtual-time", "--no-save", environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.succeeded, "\(result)")
        let captured = result.lines.filter { $0.hasPrefix("✓ ") }
        #expect(captured.count == 6, "\(result.stdout)")
        for line in captured {
            let name = String(line.dropFirst(2).prefix { $0 != "(" }.dropLast(" captured ".count))
            #expect(["face up", "face down", "upright", "upside down", "on its left edge", "on its right edge"].contains(name), "\(line)")
        }
        #expect(!result.stdout.contains("-down captured") && !result.stdout.contains("edge-down"), "\(result.stdout)")
    }

    /// Heading events from an uncalibrated compass: said once on stderr, with the fix.
    @Test func headingEventsUncalibratedSaySoOnce() async throws {
        let config = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: config) }
        let result = try await imu("events", "--sim", "figure-eight", "--heading-filter", "30", "--virtual-time", "--duration", "2",
                                   environment: ["XDG_CONFIG_HOME": config.path])
        #expect(result.succeeded, "\(result)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("imu events: warning: uncalibrated") }
        #expect(warnings.count == 1 && warnings[0].hasSuffix("fix: imu calibrate gyro --sim && imu calibrate mag --sim"), "\(result.stderr)")
    }

    /// Not on a terminal, `imu record` still says what it does and what it kept.
    @Test func recordIsNotSilent() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("walk.csv").path
        let result = try await imu("record", "--sim", "walk", "--virtual-time", "--duration", "2", "--output", log)
        #expect(result.succeeded, "\(result)")
        #expect(result.stderr.hasPrefix("recording to \(log) for 2 s (Ctrl-C stops)\n"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("recorded 200 samples (2.0 s) to \(log)\n"), "\(result.stderr)")
    }
}
