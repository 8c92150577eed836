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

    /// The event's kind as `imu events` names it: shake, orientation, slap, heading.
    public var type: String {
        switch self {
        case .shake: "shake"
        case .orientation: "orientation"
        case .slap: "slap"
        case .heading: "heading"
        }
    }

    /// One JSON object, the form `imu events --format jsonl` prints and outside checks read:
    /// `{"t":…,"type":"shake","phase":"began"}`, `{"t":…,"type":"orientation","orientation":"faceUp"}`,
    /// `{"t":…,"type":"slap","direction":"left"}`, `{"t":…,"type":"heading","heading_deg":…}`.
    public var jsonLine: String {
        let t = "\"t\":\(Self.decimal(timestamp, 6))"
        switch self {
        case .shake(let shake):
            let phase: String
            switch shake {
            case .began: phase = "began"
            case .ended: phase = "ended"
            case .cancelled: phase = "cancelled"
            }
            return "{\(t),\"type\":\"shake\",\"phase\":\"\(phase)\"}"
        case .orientation(let orientation, _):
            return "{\(t),\"type\":\"orientation\",\"orientation\":\"\(orientation.rawValue)\"}"
        case .slap(let slap):
            return "{\(t),\"type\":\"slap\",\"direction\":\"\(slap.direction.rawValue)\"}"
        case .heading(let degrees, _):
            // [0, 360) stays so after rounding: 359.996 prints as 0.00, not 360.00.
            let shown = degrees >= 359.995 ? 0 : degrees
            return "{\(t),\"type\":\"heading\",\"heading_deg\":\(Self.decimal(shown, 2))}"
        }
    }

    /// Fixed decimals without Foundation (the events layer stays Foundation-free).
    static func decimal(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        var digits = String(fraction)
        while digits.count < places { digits = "0" + digits }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return places == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(digits)"
    }
}
