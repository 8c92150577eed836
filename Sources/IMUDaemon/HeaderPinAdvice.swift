import IMUBus
import IMURules

/// Header pins a rule may drive but should not: 27 and 28 are ID_SD and ID_SC (GPIO0 and GPIO1),
/// the I²C bus of a HAT's ID EEPROM, which the firmware reads at boot (the Raspberry Pi HAT
/// specification reserves them). Driving them fights the EEPROM and the pull-ups on a HAT.
public enum HeaderPinAdvice {
    public static let reserved: [Int: (name: String, line: String)] = [27: ("ID_SD", "GPIO0"), 28: ("ID_SC", "GPIO1")]

    /// One warning per rule action that drives a reserved pin, naming the rule and the pin.
    public static func warnings(for rules: RulesFile) -> [String] {
        var warnings: [String] = []
        for rule in rules.rules {
            for case .gpio(let target, _) in rule.actions {
                let pin: Int?
                switch target {
                case .headerPin(let number): pin = number
                case .lineName(let name): pin = reserved.first { $0.value.line == name || $0.value.name == name }?.key
                }
                guard let pin, let reserved = reserved[pin] else { continue }
                warnings.append(
                    "rule \"\(rule.name)\" drives header pin \(pin) (\(reserved.line), \(reserved.name)): it carries the HAT ID EEPROM's I²C bus, "
                        + "read at boot; use another pin unless nothing is on the header's ID pins")
            }
        }
        return warnings
    }
}

/// A rule's `gpio-line = "NAME"` checked against the GPIO chip when the rules are loaded, so a
/// line the chip does not have is refused with the file and the rule's line, not later without
/// either. (The rules decoder cannot check it: the chip's names are known only at run time.)
public enum RuleLineCheck {
    public static func check(_ rules: RulesFile, chip: any GPIOChip, file: String) throws(DaemonError) {
        // Each name asked of the chip once: thousands of rules name a handful of lines, and a
        // real chip answers by walking its lines.
        var known = Set<String>()
        for rule in rules.rules {
            for case .gpio(.lineName(let name), _) in rule.actions where !known.contains(name) {
                known.insert(name)
                do {
                    _ = try chip.lineOffset(named: name)
                } catch {
                    throw DaemonError(
                        "\(file):\(rule.line): rule \"\(rule.name)\": gpio-line = \"\(name)\" is not a line of \(chip.label) "
                            + "(\(chip.lineCount) lines; on a Raspberry Pi they are named GPIO0 to GPIO27), or use gpio-pin = <header pin>")
                }
            }
        }
    }
}
