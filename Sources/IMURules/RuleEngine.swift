import IMUEvents

/// Which rules an event fires, with each rule's cooldown: pure bookkeeping, no side effects
/// (the daemon runs the actions it returns).
public struct RuleEngine: Sendable {
    public let rules: [Rule]
    /// When each rule last fired (by index), in the events' time base.
    private var lastFired: [Int: Double] = [:]

    public init(rules: [Rule]) {
        self.rules = rules
    }

    /// The rules `event` fires now, in file order; rules still cooling down are skipped.
    public mutating func fire(_ event: MotionEvent) -> [Rule] {
        var fired: [Rule] = []
        for (index, rule) in rules.enumerated() where rule.trigger.matches(event) {
            if let last = lastFired[index], event.timestamp - last < rule.cooldown { continue }
            lastFired[index] = event.timestamp
            fired.append(rule)
        }
        return fired
    }
}

extension Trigger {
    public func matches(_ event: MotionEvent) -> Bool {
        switch (self, event) {
        case (.shake(let phase), .shake(let shake)):
            switch (phase, shake) {
            case (.began, .began), (.ended, .ended), (.cancelled, .cancelled): return true
            default: return false
            }
        case (.orientation(let wanted), .orientation(let orientation, _)):
            return wanted == nil || wanted == orientation
        case (.slap(let wanted), .slap(let slap)):
            return wanted == nil || wanted == slap.direction
        case (.heading, .heading):
            return true
        default:
            return false
        }
    }
}
