/// The line writers of every output, each the one place its keys and quantities are written:
/// what `imu read/stream/events --format jsonl` print and the socket, the WebSocket and MQTT send.
/// They take plain values so this module stays below the types that carry them.
public enum OutputLines {
    /// A raw sample: `{"t":…,"acc_x":…,…,"mag_x":…|null,…,"temp_c":…|null}` (keys as the CSV's columns).
    public static func sample(
        t: Double, acceleration: (x: Double, y: Double, z: Double), rotationRate: (x: Double, y: Double, z: Double),
        magneticField: (x: Double, y: Double, z: Double)?, temperature: Double?
    ) -> String {
        var line = JSONLine(capacity: 200)
        line.number("t", t, .timestamp)
        line.vector("acc_", acceleration, .accelerationG)
        line.vector("gyr_", rotationRate, .rotationRate)
        line.vector("mag_", magneticField, .magneticFieldMicrotesla)
        line.number("temp_c", temperature, .temperatureCelsius)
        return line.line
    }

    /// Device motion: quaternion, Euler angles (degrees), gravity and user acceleration (g),
    /// rotation rate (rad/s), heading (degrees, null when unknown) and the compass's accuracy
    /// (null without a magnetometer).
    public static func motion(
        t: Double, quaternion: (w: Double, x: Double, y: Double, z: Double), eulerDegrees: (roll: Double, pitch: Double, yaw: Double),
        gravity: (x: Double, y: Double, z: Double), userAcceleration: (x: Double, y: Double, z: Double),
        rotationRate: (x: Double, y: Double, z: Double), headingDegrees: Double?, magneticAccuracy: String?
    ) -> String {
        var line = JSONLine(capacity: 360)
        line.number("t", t, .timestamp)
        line.number("quat_w", quaternion.w, .quaternion)
        line.vector("quat_", (quaternion.x, quaternion.y, quaternion.z), .quaternion)
        line.number("roll_deg", eulerDegrees.roll, .angleDegrees)
        line.number("pitch_deg", eulerDegrees.pitch, .angleDegrees)
        line.number("yaw_deg", eulerDegrees.yaw, .angleDegrees)
        line.vector("gravity_", gravity, .accelerationG)
        line.vector("user_acc_", userAcceleration, .accelerationG)
        line.vector("rot_", rotationRate, .rotationRate)
        line.number("heading_deg", headingDegrees.map(shownHeading), .headingDegrees)
        if let magneticAccuracy { line.word("mag_accuracy", magneticAccuracy) } else { line.json("mag_accuracy", "null") }
        return line.line
    }

    /// A heading in [0, 360) stays so once rounded: 359.996 is written 0.00, not 360.00.
    public static func shownHeading(_ degrees: Double) -> Double {
        let half = 0.5 / pow10(WireQuantity.headingDegrees.decimals)
        return degrees >= 360 - half ? 0 : degrees
    }

    private static func pow10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    /// An event named by a word: `{"t":…,"type":"shake","phase":"began"}`,
    /// `{"t":…,"type":"orientation","orientation":"faceUp"}`, `{"t":…,"type":"slap","direction":"left"}`.
    public static func event(t: Double, kind: EventKind, word: String) -> String {
        var line = JSONLine(capacity: 72)
        line.number("t", t, .timestamp)
        line.word("type", kind.rawValue)
        line.word(kind.detailKey, word)
        return line.line
    }

    /// A heading change: `{"t":…,"type":"heading","heading_deg":…}`.
    public static func headingEvent(t: Double, degrees: Double) -> String {
        var line = JSONLine(capacity: 64)
        line.number("t", t, .timestamp)
        line.word("type", EventKind.heading.rawValue)
        line.number(EventKind.heading.detailKey, shownHeading(degrees), .headingDegrees)
        return line.line
    }

    /// Acquisition health: `{"type":"health","t":…,"state":"measuring",…}`.
    public static func health(
        t: Double, state: String, rateHz: Double, samples: Int, lostSamples: Int, unwatchedSeconds: Double, outages: Int,
        problem: String?, calibration: String?, magneticAccuracy: String?
    ) -> String {
        var line = JSONLine(capacity: 240)
        line.word("type", "health")
        line.number("t", t, .timestamp)
        line.word("state", state)
        line.number("rate_hz", rateHz, .rateHz)
        line.integer("samples", samples)
        line.integer("lost_samples", lostSamples)
        line.number("unwatched_s", unwatchedSeconds, .durationSeconds)
        line.integer("outages", outages)
        line.string("problem", problem)
        line.string("calibration", calibration)
        line.string("mag_accuracy", magneticAccuracy)
        return line.line
    }

    /// A GPIO line and its level, as the page and the rules stream show it.
    public struct GPIOLevel: Sendable, Equatable {
        public var name: String
        public var offset: Int
        public var high: Bool

        public init(name: String, offset: Int, high: Bool) {
            self.name = name
            self.offset = offset
            self.high = high
        }

        /// `{"name":"GPIO17","offset":17,"high":true}`
        public var json: String {
            var line = JSONLine(capacity: 48)
            line.string("name", name)
            line.integer("offset", offset)
            line.bool("high", high)
            return line.line
        }
    }

    /// `[{"name":…,"offset":…,"high":…},…]`
    public static func gpioLevels(_ lines: [GPIOLevel]) -> String { JSONLine.array(lines.map(\.json)) }

    /// The levels of the lines the rules drive: `{"type":"gpio","lines":[…]}`.
    public static func gpio(_ lines: [GPIOLevel]) -> String {
        var line = JSONLine(capacity: 64)
        line.word("type", "gpio")
        line.json("lines", gpioLevels(lines))
        return line.line
    }

    /// A rule fired: `{"type":"rule","t":…,"rule":"name","event":{…},"lines":[…]}`.
    public static func ruleFired(t: Double, rule: String, eventLine: String, lines: [GPIOLevel]) -> String {
        var line = JSONLine(capacity: 160)
        line.word("type", "rule")
        line.number("t", t, .timestamp)
        line.string("rule", rule)
        line.json("event", eventLine)
        line.json("lines", gpioLevels(lines))
        return line.line
    }

    /// A request refused: `{"error":"…"}`.
    public static func error(_ message: String) -> String {
        var line = JSONLine(capacity: 64)
        line.string("error", message)
        return line.line
    }
}
