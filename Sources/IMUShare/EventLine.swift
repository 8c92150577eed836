import IMUEvents

extension MotionEvent {
    /// The event of an `imu events --format jsonl` line (what the daemon sends), nil when the
    /// line is not one.
    public init?(jsonLine: String) {
        guard case .object(let members)? = try? JSONText.parse(Array(jsonLine.utf8)) else { return nil }
        let object = Dictionary(members, uniquingKeysWith: { a, _ in a })
        guard case .number(let t)? = object["t"], case .string(let type)? = object["type"], let kind = MotionEvent.Kind(rawValue: type)
        else { return nil }
        switch (kind, object[kind.detailKey]) {
        case (.shake, .string("began")?): self = .shake(.began(timestamp: t))
        case (.shake, .string("ended")?): self = .shake(.ended(timestamp: t))
        case (.shake, .string("cancelled")?): self = .shake(.cancelled(timestamp: t))
        case (.orientation, .string(let name)?):
            guard let orientation = DeviceOrientation(rawValue: name) else { return nil }
            self = .orientation(orientation, timestamp: t)
        case (.slap, .string(let name)?):
            guard let direction = SlapDirection(rawValue: name) else { return nil }
            self = .slap(SlapEvent(direction: direction, timestamp: t))
        case (.heading, .number(let degrees)?): self = .heading(degrees: degrees, timestamp: t)
        default: return nil
        }
    }
}

/// The columns of a data line in the order given (null and missing values empty): the CSV row
/// of `imu read` / `imu stream` from the daemon's JSON line, whose keys are the CSV's columns.
public func csvRow(jsonLine: String, columns: [String]) -> String? {
    guard case .object(let members)? = try? JSONText.parse(Array(jsonLine.utf8)) else { return nil }
    let object = Dictionary(members, uniquingKeysWith: { a, _ in a })
    return columns.map { column -> String in
        switch object[column] {
        case .number?:
            // The number as the daemon wrote it (its fixed decimals), not re-printed.
            return rawValue(of: column, in: jsonLine) ?? ""
        case .string(let s)?: return s
        case .bool(let b)?: return b ? "true" : "false"
        default: return ""
        }
    }.joined(separator: ",")
}

/// The literal text of `key`'s number in a flat JSON line.
private func rawValue(of key: String, in line: String) -> String? {
    guard let range = line.range(of: "\"\(key)\":") else { return nil }
    let rest = line[range.upperBound...]
    let end = rest.firstIndex { $0 == "," || $0 == "}" } ?? rest.endIndex
    return String(rest[..<end])
}
