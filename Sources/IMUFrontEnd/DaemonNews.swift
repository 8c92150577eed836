import Foundation
import IMUWire

/// What the daemon itself does, for the front ends that show it (the dashboard's rules panel):
/// the rules in force, each rule that fired with the lines it drove, and line levels that change
/// on their own (a pulse's end).
public enum DaemonHappening: Sendable, Equatable {
    /// At start and after each reload: the rules, and the lines they drive at their levels now.
    case rules([RuleSummary], lines: [GPIOLevel])
    case ruleFired(rule: String, eventLine: String, timestamp: Double, lines: [GPIOLevel])
    /// Lines whose level changed outside a firing.
    case levels([GPIOLevel])
}

/// A rule as a peer lists it: its name, the event it answers, what it does in words.
public struct RuleSummary: Sendable, Equatable {
    public var name: String
    public var on: String
    public var actions: String

    public init(name: String, on: String, actions: String) {
        self.name = name
        self.on = on
        self.actions = actions
    }
}

/// A GPIO line the rules drive and its level (the wire module's).
public typealias GPIOLevel = OutputLines.GPIOLevel

/// The daemon's news, told to every observer on the thread that tells it (rule firings on the
/// acquisition thread, pulse ends on the pulse thread): observers hand it on without blocking.
/// A new observer hears the rules in force first.
public final class DaemonNews: @unchecked Sendable {
    // @unchecked: every field is under `lock`.
    private let lock = NSLock()
    private var observers: [Int: @Sendable (DaemonHappening) -> Void] = [:]
    private var nextKey = 0
    private var rules: DaemonHappening?

    public init() {}

    /// Adds an observer; returns its key for `remove`.
    public func observe(_ handler: @escaping @Sendable (DaemonHappening) -> Void) -> Int {
        let (key, rules) = lock.withLock { () -> (Int, DaemonHappening?) in
            nextKey += 1
            observers[nextKey] = handler
            return (nextKey, self.rules)
        }
        if let rules { handler(rules) }
        return key
    }

    public func remove(_ key: Int) { _ = lock.withLock { observers.removeValue(forKey: key) } }

    public func tell(_ happening: DaemonHappening) {
        let handlers = lock.withLock { () -> [@Sendable (DaemonHappening) -> Void] in
            if case .rules = happening { rules = happening }
            return observers.sorted { $0.key < $1.key }.map(\.value)
        }
        for handler in handlers { handler(happening) }
    }
}
