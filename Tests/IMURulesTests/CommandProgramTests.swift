import Foundation
import IMUConfigFile
import IMUEvents
import Testing
@testable import IMURules

/// A command's program is checked when the rules are loaded, with the file, line and column of
/// its `command`; the new command keys are read and bounded.
@Suite struct CommandProgramTests {
    func parse(_ text: String) throws(ConfigFileError) -> RulesFile {
        try RulesFile.parse(text, file: "rules.toml", headerPins: nil)
    }

    func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    func rule(command: String, extra: String = "") -> String {
        "[[rule]]\nname = \"x\"\non = \"shake\"\n\(extra)  [[rule.action]]\n  command = \(command)\n"
    }

    @Test func aBareNameIsFoundOnPATHAndMadeAbsolute() throws {
        let rules = try parse(rule(command: "[\"true\", \"a\"]"))
        guard case let .command(arguments, _) = rules.rules[0].actions[0] else { Issue.record("not a command"); return }
        #expect(arguments.count == 2 && arguments[1] == "a")
        #expect(arguments[0].hasPrefix("/") && arguments[0].hasSuffix("/true") && access(arguments[0], X_OK) == 0)
        #expect(try CommandProgram.checked(["sh"], rule: "r", file: "f", line: 1, column: 1, searchPath: "/nowhere:/bin") == ["/bin/sh"])
    }

    @Test func aMissingProgramIsRefusedAtLoadWithItsPlace() {
        let missing = failure(rule(command: "[\"/nonexistent\"]"))
        #expect(missing == "rules.toml:5:3: `command` in rule \"x\" names \"/nonexistent\", which does not exist", "\(missing)")
        #expect(!missing.contains("NSCocoaErrorDomain"))
        #expect(failure(rule(command: "[\"no-such-program-imu\"]")).hasPrefix("rules.toml:5:3: `command` in rule \"x\" names \"no-such-program-imu\", which is not an executable program on PATH"))
        #expect(failure(rule(command: "[\"/etc/hostname\"]")).contains("which is not executable") || getuid() == 0)
        #expect(failure(rule(command: "[\"/tmp\"]")).contains("which is not a regular file"))
        #expect(failure(rule(command: "[]")).contains("must name a program"))
    }

    /// The check the decoder calls with the parsed argv. (TOMLKit itself cuts a string at an
    /// escaped NUL before the decoder sees it; the project's own TOML parser keeps it, and this
    /// check refuses it with the place of `command`.)
    @Test func aNULInAnArgumentIsRefused() {
        do {
            _ = try CommandProgram.checked(["/bin/echo", "ok", "cut\u{0}here"], rule: "x", file: "rules.toml", line: 5, column: 3)
            Issue.record("an argument with NUL was accepted")
        } catch {
            #expect(error.description == "rules.toml:5:3: `command` in rule \"x\" has a NUL character in argument 3; arguments cannot contain NUL")
        }
    }

    @Test func commandLimitsAndTheHeadingFilterAreRead() throws {
        let defaults = try parse(rule(command: "[\"/bin/true\"]"))
        #expect(defaults.commandLimits == CommandLimits() && defaults.headingFilterDegrees == 10)
        #expect(defaults.rules[0].maxRunningCommands == nil)
        let set = try parse("""
            max-running-commands = 3
            command-output-lines = 5
            command-output-bytes = 100
            command-kill-grace-ms = 250
            heading-filter-deg = 22.5

            """ + rule(command: "[\"/bin/true\"]", extra: "max-running-commands = 1\n"))
        #expect(set.commandLimits == CommandLimits(maxRunning: 3, outputLines: 5, outputBytes: 100, killGrace: 0.25))
        #expect(set.headingFilterDegrees == 22.5 && set.rules[0].maxRunningCommands == 1)
        #expect(failure("max-running-commands = 0\n" + rule(command: "[\"/bin/true\"]"))
            == "rules.toml:1:1: `max-running-commands` must be a whole number from 1 to 256, found 0")
        #expect(failure("heading-filter-deg = 400\n" + rule(command: "[\"/bin/true\"]")).hasPrefix("rules.toml:1:1: `heading-filter-deg` must be"))
    }

    @Test func theEnvironmentIsTheDocumentedSetOnly() {
        let environment = CommandProgram.environment(rule: "r", event: .slap(SlapEvent(direction: .left, timestamp: 3)))
        #expect(Set(environment.keys) == ["PATH", "LANG", "IMU_RULE", "IMU_EVENT", "IMU_EVENT_TIME", "IMU_EVENT_JSON", "IMU_DIRECTION"])
        #expect(environment["IMU_DIRECTION"] == "left" && environment["IMU_RULE"] == "r")
    }
}
