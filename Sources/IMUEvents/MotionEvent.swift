import IMUWire

/// Everything the recognisers report, in one stream, each with the time of the sample that
/// completed it (the input's time base: the monotonic clock live, the log's `t` in a replay).
public enum MotionEvent: Sendable, Equatable {
    case shake(ShakeEvent)
    case orientation(DeviceOrientation, timestamp: Double)
    case slap(SlapEvent)
    /// A heading change beyond the heading filter, degrees clockwise from north.
    case heading(degrees: Double, timestamp: Double)

    public var timestamp: Double {
        switch self {
        case .shake(.began(let t)), .shake(.ended(let t)), .shake(.cancelled(let t)): t
        case .orientation(_, let t): t
        case .slap(let slap): slap.timestamp
        case .heading(_, let t): t
        }
    }

    /// The kinds of event, the one list every output and the rules use (`IMUWire.EventKind`).
    public typealias Kind = EventKind

    public var kind: Kind {
        switch self {
        case .shake: .shake
        case .orientation: .orientation
        case .slap: .slap
        case .heading: .heading
        }
    }

    /// The event's kind as `imu events` names it: shake, orientation, slap, heading.
    public var type: String { kind.rawValue }

    /// One JSON object, the form `imu events --format jsonl` prints and outside checks read:
    /// `{"t":…,"type":"shake","phase":"began"}`, `{"t":…,"type":"orientation","orientation":"faceUp"}`,
    /// `{"t":…,"type":"slap","direction":"left"}`, `{"t":…,"type":"heading","heading_deg":…}`.
    public var jsonLine: String {
        switch self {
        case .shake(let shake):
            let phase: String
            switch shake {
            case .began: phase = "began"
            case .ended: phase = "ended"
            case .cancelled: phase = "cancelled"
            }
            return OutputLines.event(t: timestamp, kind: .shake, word: phase)
        case .orientation(let orientation, let t):
            return OutputLines.event(t: t, kind: .orientation, word: orientation.rawValue)
        case .slap(let slap):
            return OutputLines.event(t: slap.timestamp, kind: .slap, word: slap.direction.rawValue)
        case .heading(let degrees, let t):
            return OutputLines.headingEvent(t: t, degrees: degrees)
        }
    }
}
