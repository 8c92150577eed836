import IMUBus
import IMUFrontEnd
import IMURules

/// The rules in force as the front ends show them (the dashboard's "Rules and GPIO" panel): each
/// rule in words, and the lines the rules drive at their levels now.
extension Daemon {
    /// Told at start and after each reload, so a page lists the rules in force before any fires.
    func tellRules() {
        var lines: [GPIOLevel] = []
        for rule in rules.rules {
            for case .gpio(let target, _) in rule.actions {
                guard let line = runner.line(for: target), !lines.contains(where: { $0.offset == Int(line.offset) }) else { continue }
                lines.append(GPIOLevel(line))
            }
        }
        news.tell(.rules(rules.rules.map(Self.summary), lines: lines.sorted { $0.offset < $1.offset }))
    }

    static func summary(_ rule: Rule) -> RuleSummary {
        RuleSummary(name: rule.name, on: describe(rule.trigger), actions: rule.actions.map(describe).joined(separator: ", "))
    }

    static func describe(_ trigger: Trigger) -> String {
        switch trigger {
        case .shake(let phase): "shake \(phase.rawValue)"
        case .orientation(let orientation): orientation.map { "orientation \($0)" } ?? "any orientation change"
        case .slap(let direction): direction.map { "slap \($0)" } ?? "a slap"
        case .heading: "heading change"
        }
    }

    static func describe(_ action: Action) -> String {
        switch action {
        case .gpio(let target, let operation):
            let where_ = switch target {
            case .headerPin(let pin): "pin \(pin)"
            case .lineName(let name): name
            }
            return switch operation {
            case .setHigh: "\(where_) high"
            case .setLow: "\(where_) low"
            case .toggle: "toggle \(where_)"
            case .pulse(let ms): "pulse \(where_) \(ms) ms"
            }
        case .command(let arguments, _):
            return "run " + (arguments.first ?? "")
        }
    }
}

extension GPIOLevel {
    /// A driven line's level now, named as the page names it.
    init(_ line: any GPIOOutputLine) {
        self.init(name: "GPIO\(line.offset)", offset: Int(line.offset), high: line.isHigh)
    }
}
