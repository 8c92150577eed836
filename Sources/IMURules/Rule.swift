import IMUEvents

/// One rule of a rules file: when an event matches, run the actions (unless the rule fired less
/// than `cooldown` seconds ago).
public struct Rule: Sendable, Equatable {
    public var name: String
    public var trigger: Trigger
    public var actions: [Action]
    /// Seconds during which the rule does not fire again (debounce).
    public var cooldown: Double
    /// Where the rule starts in its file, for logs.
    public var line: Int
    /// Commands of this rule running at once (`max-running-commands`); nil: the file's default.
    public var maxRunningCommands: Int?

    public init(name: String, trigger: Trigger, actions: [Action], cooldown: Double = 0, line: Int = 0, maxRunningCommands: Int? = nil) {
        self.name = name
        self.trigger = trigger
        self.actions = actions
        self.cooldown = cooldown
        self.line = line
        self.maxRunningCommands = maxRunningCommands
    }
}

/// Which events a rule answers.
public enum Trigger: Sendable, Equatable {
    case shake(phase: ShakePhase)
    /// nil: any change of orientation.
    case orientation(DeviceOrientation?)
    /// nil: either direction.
    case slap(SlapDirection?)
    /// A heading change beyond the heading filter.
    case heading
}

public enum ShakePhase: String, Sendable, Equatable, CaseIterable {
    case began, ended, cancelled
}

/// What a rule does.
public enum Action: Sendable, Equatable {
    case gpio(GPIOTarget, GPIOOperation)
    /// A program run directly (never through a shell), killed after `timeout` seconds.
    case command(arguments: [String], timeout: Double)
}

/// A GPIO line named the way the user wrote it.
public enum GPIOTarget: Sendable, Hashable {
    /// A header pin number (1…40), turned into a line through the board profile.
    case headerPin(Int)
    /// A line name as the GPIO chip reports it (`GPIO17`).
    case lineName(String)
}

public enum GPIOOperation: Sendable, Equatable {
    case setHigh, setLow, toggle
    case pulse(milliseconds: Int)
}
