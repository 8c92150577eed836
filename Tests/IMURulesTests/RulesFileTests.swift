import IMUConfigFile
import IMUEvents
import Testing
@testable import IMURules

@Suite struct RulesFileTests {
    let pins: Set<Int> = [7, 11, 12, 13]

    func parse(_ text: String) throws(ConfigFileError) -> RulesFile {
        try RulesFile.parse(text, file: "rules.toml", headerPins: pins)
    }

    /// The first error's "file:line: message", for checking where it points.
    func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func lowPowerIsAFlagAtTheTop() throws {
        let rule = "[[rule]]\nname = \"r\"\non = \"shake\"\n  [[rule.action]]\n  gpio-pin = 11\n  set = \"toggle\"\n"
        #expect(try parse(rule).lowPower == false)
        #expect(try parse("low-power = true\n" + rule).lowPower == true)
        #expect(failure("low-power = \"yes\"\n" + rule) == "rules.toml:1:1: `low-power` must be true or false, found the string \"yes\"")
        #expect(failure("low_power = true\n" + rule).contains("did you mean `low-power`?"))
    }

    @Test func aFileWithEveryKindOfRuleLoads() throws {
        let file = try parse("""
            [[rule]]
            name = "relay on shake"
            on = "shake"
            cooldown-ms = 500
              [[rule.action]]
              gpio-pin = 11
              set = "toggle"
              [[rule.action]]
              command = ["/usr/bin/logger", "-t", "imu", "shaken"]
              timeout-ms = 2000

            [[rule]]
            name = "lights off face down"
            on = "orientation"
            orientation = "faceDown"
              [[rule.action]]
              gpio-line = "GPIO27"
              set = "pulse"
              pulse-ms = 200

            [[rule]]
            name = "next page"
            on = "slap"
            direction = "right"
              [[rule.action]]
              gpio-pin = 7
              set = "high"
            """)
        #expect(file.rules.count == 3)
        #expect(file.rules[0] == Rule(
            name: "relay on shake", trigger: .shake(phase: .ended),
            actions: [.gpio(.headerPin(11), .toggle), .command(arguments: ["/usr/bin/logger", "-t", "imu", "shaken"], timeout: 2)],
            cooldown: 0.5, line: 1))
        #expect(file.rules[1].trigger == .orientation(.faceDown))
        #expect(file.rules[1].actions == [.gpio(.lineName("GPIO27"), .pulse(milliseconds: 200))])
        #expect(file.rules[2].trigger == .slap(.right) && file.rules[2].line == 21)
    }

    /// The fuzz targets' finding (toml++ aborting on a header without a name) for rules files.
    @Test func aTableHeaderWithoutANameIsASyntaxErrorNotACrash() {
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\n  [[ rule.action]]\n  [[\n") == "rules.toml:5:5: TOML syntax error: a table header needs a name after '[' (letters, digits, - and _, or a quoted name), found the end of the line")
    }

    /// Issue #12: toml++ asserted (SIGABRT) on this time; `imu run` died in a restart loop.
    @Test func aDamagedTimeIsASyntaxErrorNotAnAbort() {
        #expect(failure("[[rule]]\nname = \"x\"\nsince = 2026-11-22T:3808:49Z\n")
            == "rules.toml:3:9: TOML syntax error: `2026-11-22T:3808:49Z` is not a date or time (RFC 3339, like 1979-05-27T07:32:00Z)")
    }

    /// A NUL cannot reach a program's argv (it would cut the argument short): refused at its line.
    @Test func aNULInACommandArgumentIsRefusedAtItsLine() {
        let text = "[[rule]]\nname = \"x\"\non = \"shake\"\n  [[rule.action]]\n  command = [\"/bin/echo\", \"a\\u0000b\"]\n"
        let message = failure(text)
        #expect(message.hasPrefix("rules.toml:5:"), "\(message)")
        #expect(message.contains("NUL"), "\(message)")
    }

    /// 50 000 nested inline tables: refused at the depth limit, not after gigabytes.
    @Test func deepNestingIsRefusedAtItsLine() {
        let deep = "[[rule]]\nname = " + String(repeating: "{a=", count: 10_000) + "1" + String(repeating: "}", count: 10_000) + "\n"
        #expect(failure(deep).hasPrefix("rules.toml:2:"))
        #expect(failure(deep).contains("nested deeper than 32 levels"))
    }

    @Test func aPinTheBoardDoesNotHaveIsAnErrorAtItsLine() {
        let text = failure("""
            [[rule]]
            name = "relay"
            on = "shake"
              [[rule.action]]
              gpio-pin = 2
              set = "high"
            """)
        #expect(text.hasPrefix("rules.toml:5:"))
        #expect(text.contains("header pin 2") && text.contains("GPIO pins: 7, 11, 12, 13"))
    }

    @Test func anUnknownEventSuggestsTheNearestOne() {
        let text = failure("""
            [[rule]]
            name = "oops"
            on = "shkae"
              [[rule.action]]
              gpio-pin = 7
              set = "high"
            """)
        #expect(text.hasPrefix("rules.toml:3:"))
        #expect(text.contains("did you mean \"shake\""))
    }

    @Test func aTypoInAKeyIsRefused() {
        let text = failure("""
            [[rule]]
            name = "r"
            on = "shake"
            cooldwn-ms = 100
              [[rule.action]]
              gpio-pin = 7
              set = "high"
            """)
        #expect(text.hasPrefix("rules.toml:4:") && text.contains("did you mean `cooldown-ms`"))
    }

    @Test func errorsInALaterRulesActionPointAtThatAction() {
        let text = failure("""
            [[rule]]
            name = "a"
            on = "shake"
              [[rule.action]]
              gpio-pin = 7
              set = "high"

            [[rule]]
            name = "b"
            on = "slap"
              [[rule.action]]
              gpio-pin = 11
              set = "sideways"
            """)
        #expect(text.hasPrefix("rules.toml:13:"), "\(text)")
        #expect(text.contains("`set`") && text.contains("\"sideways\""))
    }

    @Test func refusedMistakes() {
        #expect(failure("") .contains("at least one [[rule]]"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\n").contains("has no [[rule.action]]"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"slap\"\nphase = \"began\"\n[[rule.action]]\ngpio-pin = 7\nset = \"high\"\n")
            .contains("`phase` does not apply to slap events"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\n[[rule.action]]\ncommand = [\"bin/logger\"]\n")
            .contains("must be an absolute path or a program name found on PATH"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\n[[rule.action]]\ngpio-pin = 7\nset = \"pulse\"\n")
            .contains("needs `pulse-ms`"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\n[[rule.action]]\ngpio-pin = 7\nset = \"high\"\ncommand = [\"/bin/true\"]\n")
            .contains("not both"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\ncooldown-ms = -5\n[[rule.action]]\ngpio-pin = 7\nset = \"high\"\n")
            .contains("between 0 and 3600000"))
        #expect(failure("[[rule]]\nname = \"x\"\non = \"shake\"\n[[rule.action]\n").hasPrefix("rules.toml:4:"))
    }
}
