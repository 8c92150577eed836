import Foundation
import IMUConfigFile
import Testing
@testable import IMURules

/// Rules files load in time proportional to their length: each rule's line and each command's
/// position used to be found by walking every [[rule]] (and every [[rule.action]]) again, so
/// 1 250 rules took 0.48 s, 5 000 took 7.1 s and 10 000 about 34 s.
@Suite struct RulesScaleTests {
    /// `count` rules, every tenth with a command action besides its GPIO action.
    static func rulesText(_ count: Int) -> String {
        var text = ""
        text.reserveCapacity(count * 100)
        for n in 0..<count {
            text += "[[rule]]\nname = \"r\(n)\"\non = \"shake\"\n[[rule.action]]\ngpio-pin = 11\nset = \"toggle\"\n"
            if n % 10 == 0 { text += "[[rule.action]]\ncommand = [\"/bin/true\", \"\(n)\"]\n" }
        }
        return text
    }

    /// The fastest of three parses, in seconds.
    func parseSeconds(_ text: String) throws -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            _ = try RulesFile.parse(text, file: "rules.toml", headerPins: [11])
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }

    @Test func tenThousandRulesLoadWithTheirLinesAndCommandPositions() throws {
        let text = Self.rulesText(10_000)
        let rules = try RulesFile.parse(text, file: "rules.toml", headerPins: [11])
        #expect(rules.rules.count == 10_000)
        // Each rule's line is its [[rule]] header's: 6 lines a rule, 2 more every tenth.
        #expect(rules.rules[0].line == 1 && rules.rules[1].line == 9 && rules.rules[2].line == 15, "\(rules.rules.prefix(3).map(\.line))")
        #expect(rules.rules[9_999].line == 1 + 9_999 * 6 + 1_000 * 2)
    }

    /// Four times the rules, about four times the time (quadratic: sixteen). The fastest of
    /// three runs each, so a busy machine's pauses do not count.
    @Test func loadTimeGrowsLinearly() throws {
        let small = try parseSeconds(Self.rulesText(2_500))
        let large = try parseSeconds(Self.rulesText(10_000))
        #expect(large / small < 8, "2 500 rules \(small) s, 10 000 rules \(large) s")
    }
}
