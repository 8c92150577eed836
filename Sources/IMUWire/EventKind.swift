/// The kinds of event the recognisers report, as every output names them (`"type"` of an event
/// line, the rules' `on =` words, the MQTT event entities, D-Bus, the page, the Python client).
/// The one list: nothing else spells them.
public enum EventKind: String, CaseIterable, Sendable, Comparable {
    case shake
    case orientation
    case slap
    case heading

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The member naming what happened (`"phase"`, `"orientation"`, `"direction"`, `"heading_deg"`).
    public var detailKey: String {
        switch self {
        case .shake: "phase"
        case .orientation: "orientation"
        case .slap: "direction"
        case .heading: "heading_deg"
        }
    }
}
