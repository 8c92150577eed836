import IMUConfigFile
import IMUEvents

/// A rules file (`/etc/imu/rules.toml`): every rule checked at load time, so a mistake is an
/// error with file:line and what was expected, never a rule that silently does nothing.
///
/// ```toml
/// low-power = true          # optional: sleep between shakes, woken by the chip's INT pin
///
/// [[rule]]
/// name = "relay on shake"
/// on = "shake"              # shake | orientation | slap | heading
/// phase = "ended"           # shake: began | ended | cancelled (default: ended)
/// cooldown-ms = 500
///
///   [[rule.action]]
///   gpio-pin = 11           # a header pin of the board; or gpio-line = "GPIO17"
///   set = "toggle"          # high | low | toggle | pulse
///
///   [[rule.action]]
///   command = ["/usr/bin/logger", "-t", "imu", "shaken"]
///   timeout-ms = 2000
/// ```
public struct RulesFile: Sendable, Equatable {
    public var rules: [Rule]
    /// `low-power = true`: the daemon lets the chip watch for motion in its low-power mode and
    /// sleeps until its INT pin says something moved (shakes only are seen while it sleeps).
    public var lowPower: Bool
    /// Caps and output limits for command actions (top-level `max-running-commands`,
    /// `command-output-lines`, `command-output-bytes`, `command-kill-grace-ms`).
    public var commandLimits: CommandLimits
    /// `heading-filter-deg`: heading changes at least this big are `on = "heading"` events
    /// (the filter `imu events --heading-filter` applies).
    public var headingFilterDegrees: Double

    public static let defaultHeadingFilterDegrees = 10.0

    public init(rules: [Rule], lowPower: Bool = false, commandLimits: CommandLimits = CommandLimits(),
                headingFilterDegrees: Double = RulesFile.defaultHeadingFilterDegrees) {
        self.rules = rules
        self.lowPower = lowPower
        self.commandLimits = commandLimits
        self.headingFilterDegrees = headingFilterDegrees
    }

    /// Reads and checks `path`. `headerPins` are the pins the board has (pin → line); a rule
    /// naming another pin is refused. nil: pins are not checked (no board known).
    public static func load(from path: String, headerPins: Set<Int>?) throws(ConfigFileError) -> RulesFile {
        try parse(try readConfigurationText(path, what: "rules file"), file: path, headerPins: headerPins)
    }

    public static func parse(_ text: String, file: String, headerPins: Set<Int>?) throws(ConfigFileError) -> RulesFile {
        try RulesDecoder(text: text, file: file, headerPins: headerPins).decode()
    }
}

struct RulesDecoder: TOMLSchemaDecoder {
    let file: String
    let locator: TOMLLocator
    let headerPins: Set<Int>?

    init(text: String, file: String, headerPins: Set<Int>?) throws(ConfigFileError) {
        self.file = file
        self.locator = TOMLLocator(root: try Self.parseRoot(text, file: file))
        self.headerPins = headerPins
    }

    static let ruleKeys = ["name", "on", "phase", "orientation", "direction", "cooldown-ms", "action", "max-running-commands"]
    static let limitKeys = ["max-running-commands", "command-output-lines", "command-output-bytes", "command-kill-grace-ms", "heading-filter-deg"]
    static let actionKeys = ["gpio-pin", "gpio-line", "set", "pulse-ms", "command", "timeout-ms"]
    /// The `on =` words: the event kinds (`MotionEvent.Kind`), the one list.
    static let events = MotionEvent.Kind.allCases.map(\.rawValue)
    static let levels = ["high", "low", "toggle", "pulse"]

    static let expected: [String: String] = [
        "rule": "an array of tables, written [[rule]]",
        "low-power": "true or false",
        "name": "a string like \"relay on shake\"",
        "on": "one of \"shake\", \"orientation\", \"slap\", \"heading\"",
        "phase": "one of \"began\", \"ended\", \"cancelled\"",
        "orientation": "one of " + DeviceOrientation.allCases.filter { $0 != .unknown }.map { "\"\($0.rawValue)\"" }.joined(separator: ", "),
        "direction": "\"left\" or \"right\"",
        "cooldown-ms": "a whole number of milliseconds like 500",
        "action": "an array of tables, written [[rule.action]]",
        "gpio-pin": "a header pin number like 11",
        "gpio-line": "a GPIO line name like \"GPIO17\"",
        "set": "one of \"high\", \"low\", \"toggle\", \"pulse\"",
        "pulse-ms": "a whole number of milliseconds like 200",
        "command": "an array of strings: the program and its arguments, like [\"/usr/bin/logger\", \"shaken\"]",
        "timeout-ms": "a whole number of milliseconds like 2000",
        "heading-filter-deg": "a number of degrees above 0 and below 360, like 10",
    ]

    func decode() throws(ConfigFileError) -> RulesFile {
        let root = locator.root
        // [mqtt] belongs to the daemon's MQTT front end, which checks it (MQTTSettings); [http]
        // to the web front end (IMUWeb's HTTPSettings); [socket] and [dbus] to the local front
        // ends (IMUShare's SocketFileSettings, IMUSensorProxy's DBusFileSettings).
        try checkKeys(root, allowed: ["low-power", "rule", "mqtt", "http", "socket", "dbus"] + Self.limitKeys, table: nil, index: nil, what: "a rules file")
        var lowPower = false
        if let value = root["low-power"] {
            guard value.type == .bool, let flag = value.bool else { throw mustBe("low-power", value, table: nil, index: nil) }
            lowPower = flag
        }
        var rules: [Rule] = []
        var actionIndex = 0  // [[rule.action]] elements are numbered across the whole file
        for (index, table) in try tables(root, "rule").enumerated() {
            rules.append(try rule(table, index: index, actionIndex: &actionIndex))
        }
        if rules.isEmpty { throw error("a rules file needs at least one [[rule]] (name, on, and its [[rule.action]])") }
        let limits = CommandLimits()
        let heading = try number(root, "heading-filter-deg", required: false) ?? RulesFile.defaultHeadingFilterDegrees
        guard heading > 0 && heading < 360 else { throw mustBe("heading-filter-deg", root["heading-filter-deg"]!, table: nil, index: nil) }
        return RulesFile(rules: rules, lowPower: lowPower, commandLimits: CommandLimits(
            maxRunning: try bounded(root, "max-running-commands", 1...256) ?? limits.maxRunning,
            maxRunningPerRule: limits.maxRunningPerRule,
            outputLines: try bounded(root, "command-output-lines", 0...10_000) ?? limits.outputLines,
            outputBytes: try bounded(root, "command-output-bytes", 0...1 << 20) ?? limits.outputBytes,
            killGrace: Double(try bounded(root, "command-kill-grace-ms", 0...60_000) ?? Int(limits.killGrace * 1000)) / 1000),
            headingFilterDegrees: heading)
    }

    func rule(_ t: TOMLTable, index: Int, actionIndex: inout Int) throws(ConfigFileError) -> Rule {
        try checkKeys(t, allowed: Self.ruleKeys, table: "rule", index: index, what: "[[rule]]")
        let name = try string(t, "name", required: true, table: "rule", index: index)!
        let on = try string(t, "on", required: true, table: "rule", index: index)!
        // Keys that belong to another kind of event are mistakes, not decoration.
        let kind = MotionEvent.Kind(rawValue: on)
        for key in ["phase", "orientation", "direction"] where t[key] != nil && kind?.detailKey != key {
            throw error("`\(key)` does not apply to \(on) events in rule \"\(name)\"", key: key, table: "rule", index: index)
        }
        let trigger: Trigger
        switch kind {
        case .shake:
            let text = try string(t, "phase", required: false, table: "rule", index: index) ?? "ended"
            guard let phase = ShakePhase(rawValue: text) else { throw mustBe("phase", t["phase"]!, table: "rule", index: index) }
            trigger = .shake(phase: phase)
        case .orientation:
            let text = try string(t, "orientation", required: false, table: "rule", index: index)
            let orientation = text.flatMap(DeviceOrientation.init(rawValue:))
            if text != nil && (orientation == nil || orientation == .unknown) {
                throw mustBe("orientation", t["orientation"]!, table: "rule", index: index)
            }
            trigger = .orientation(orientation)
        case .slap:
            let text = try string(t, "direction", required: false, table: "rule", index: index)
            let direction = text.flatMap(SlapDirection.init(rawValue:))
            if text != nil && direction == nil { throw mustBe("direction", t["direction"]!, table: "rule", index: index) }
            trigger = .slap(direction)
        case .heading:
            trigger = .heading
        case nil:
            var message = "`on` in rule \"\(name)\" must be \(Self.expected["on"]!), found \"\(on)\""
            if let near = ClosestName.suggestion(for: on, among: Self.events) { message += "; did you mean \"\(near)\"?" }
            throw error(message, key: "on", table: "rule", index: index)
        }
        let cooldown = try milliseconds(t, "cooldown-ms", table: "rule", index: index) ?? 0

        var actions: [Action] = []
        for actionTable in try tables(t, "action") {
            actions.append(try action(actionTable, index: actionIndex, rule: name))
            actionIndex += 1
        }
        if actions.isEmpty {
            throw error("rule \"\(name)\" has no [[rule.action]]: say what it should do (a GPIO pin or a command)", table: "rule", index: index)
        }
        // The table itself knows where its header is: asking the locator would walk every
        // [[rule]] for each one (10 000 rules took 34 s that way).
        let line = t.position.line
        return Rule(name: name, trigger: trigger, actions: actions, cooldown: Double(cooldown) / 1000, line: line,
                    maxRunningCommands: try bounded(t, "max-running-commands", 1...256, table: "rule", index: index))
    }

    func action(_ t: TOMLTable, index: Int, rule: String) throws(ConfigFileError) -> Action {
        let table = "rule.action"
        try checkKeys(t, allowed: Self.actionKeys, table: table, index: index, what: "[[rule.action]]")
        let gpioKeys = ["gpio-pin", "gpio-line", "set", "pulse-ms"].filter { t[$0] != nil }
        let commandKeys = ["command", "timeout-ms"].filter { t[$0] != nil }
        if !gpioKeys.isEmpty && !commandKeys.isEmpty {
            throw error("an action of rule \"\(rule)\" is either a GPIO line (gpio-pin/gpio-line, set) or a command, not both", key: commandKeys[0], table: table, index: index)
        }
        if !commandKeys.isEmpty {
            let at = t.position(of: "command") ?? t.position
            let arguments = try CommandProgram.checked(
                try stringArray(t, "command", table: table, index: index), rule: rule, file: file, line: at.line, column: at.column)
            let timeout = try milliseconds(t, "timeout-ms", table: table, index: index) ?? 10_000
            return .command(arguments: arguments, timeout: Double(timeout) / 1000)
        }

        let target: GPIOTarget
        switch (t["gpio-pin"], t["gpio-line"]) {
        case (nil, nil):
            throw error("an action of rule \"\(rule)\" needs `gpio-pin`, `gpio-line` or `command`", table: table, index: index)
        case (.some, .some):
            throw error("an action of rule \"\(rule)\" names both `gpio-pin` and `gpio-line`; keep one", key: "gpio-line", table: table, index: index)
        case (.some, nil):
            let pin = try integer(t, "gpio-pin", required: true, table: table, index: index)!
            if let headerPins, !headerPins.contains(pin) {
                let usable = headerPins.sorted().map(String.init).joined(separator: ", ")
                throw error("header pin \(pin) in rule \"\(rule)\" is not a GPIO pin of this board (GPIO pins: \(usable))", key: "gpio-pin", table: table, index: index)
            }
            target = .headerPin(pin)
        case (nil, .some):
            target = .lineName(try string(t, "gpio-line", required: true, table: table, index: index)!)
        }
        let level = try string(t, "set", required: true, table: table, index: index)!
        let operation: GPIOOperation
        switch level {
        case "high": operation = .setHigh
        case "low": operation = .setLow
        case "toggle": operation = .toggle
        case "pulse":
            guard let length = try milliseconds(t, "pulse-ms", table: table, index: index), length > 0 else {
                throw error("`set = \"pulse\"` in rule \"\(rule)\" needs `pulse-ms` (\(Self.expected["pulse-ms"]!))", key: "set", table: table, index: index)
            }
            operation = .pulse(milliseconds: length)
        default:
            throw mustBe("set", t["set"]!, table: table, index: index)
        }
        if t["pulse-ms"] != nil && level != "pulse" {
            throw error("`pulse-ms` only applies to `set = \"pulse\"` in rule \"\(rule)\"", key: "pulse-ms", table: table, index: index)
        }
        return .gpio(target, operation)
    }

    /// A whole number in `range`, nil when the key is absent.
    func bounded(_ t: TOMLTable, _ key: String, _ range: ClosedRange<Int>, table: String? = nil, index: Int? = nil) throws(ConfigFileError) -> Int? {
        guard let value = try integer(t, key, required: false, table: table, index: index) else { return nil }
        guard range.contains(value) else {
            throw error("`\(key)` must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(value)", key: key, table: table, index: index)
        }
        return value
    }

    /// A non-negative whole number of milliseconds, at most an hour.
    func milliseconds(_ t: TOMLTable, _ key: String, table: String, index: Int) throws(ConfigFileError) -> Int? {
        guard let value = try integer(t, key, required: false, table: table, index: index) else { return nil }
        guard value >= 0 && value <= 3_600_000 else {
            throw error("`\(key)` must be between 0 and 3600000 milliseconds, found \(value)", key: key, table: table, index: index)
        }
        return value
    }
}
