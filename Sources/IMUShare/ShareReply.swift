import IMUFrontEnd
/// The lines the server writes besides data (Docs/protocol.md, "Replies"). Data lines are the
/// engine's own JSON lines; these carry "type" (or "error") so a client tells them apart.
public enum ShareReply {
    /// The protocol this server speaks. A client that sees a larger number than it knows should
    /// still work with what it knows: new versions only add keys, requests and streams.
    public static let protocolVersion = 1

    public static func hello(_ info: FeedInfo, server: String, maxRequestBytes: Int, id: JSONValue? = nil) -> String {
        var members: [(String, JSONValue)] = [
            ("type", .string("hello")), ("protocol", .number(Double(protocolVersion))), ("server", .string(server)),
            ("chip", .string(info.chip)), ("board", .string(info.board)), ("bus", .string(info.bus)),
        ]
        if let address = info.address {
            // As the calibration file and the CSV's `# address:` write it: "0x6a", "0x08".
            let hex = String(address, radix: 16)
            members.append(("address", .string("0x" + (hex.count < 2 ? "0" : "") + hex)))
        }
        members += [
            ("rate_hz", .number(info.rateHz)), ("magnetometer", .bool(info.magnetometer)),
        ]
        if let frame = info.referenceFrame { members.append(("frame", .string(frame))) }
        members += [
            ("streams", .array(info.streams.map { .string($0.rawValue) })),
            ("event_types", .array(IdentifiedRequest.eventTypes.map(JSONValue.string))),
            ("max_request_bytes", .number(Double(maxRequestBytes))),
        ]
        return line(members, id: id)
    }

    /// The answer to a subscribe: the stream, the motion rate given (and its divisor), the
    /// event types, and every stream the client now receives.
    public static func subscribed(_ options: SubscribeOptions, divisor: Int, engineRateHz: Double, now: [ShareStream], id: JSONValue?) -> String {
        var members: [(String, JSONValue)] = [("type", .string("subscribed")), ("stream", .string(options.stream.rawValue))]
        switch options.stream {
        case .motion:
            members.append(("rate_hz", .number(engineRateHz / Double(divisor))))
            members.append(("divisor", .number(Double(divisor))))
        case .samples:
            members.append(("rate_hz", .number(engineRateHz)))
        case .events:
            members.append(("types", .array((options.eventTypes ?? IdentifiedRequest.eventTypes).map(JSONValue.string))))
        case .health, .rules, .calibration:
            break
        }
        members.append(("streams", .array(now.map { .string($0.rawValue) })))
        return line(members, id: id)
    }

    public static func unsubscribed(_ stream: ShareStream?, now: [ShareStream], id: JSONValue?) -> String {
        var members: [(String, JSONValue)] = [("type", .string("unsubscribed"))]
        if let stream { members.append(("stream", .string(stream.rawValue))) }
        members.append(("streams", .array(now.map { .string($0.rawValue) })))
        return line(members, id: id)
    }

    /// The answer to a reload-calibration: the file now in force (null: none) and what it calibrates.
    public static func calibrationReloaded(_ reloaded: CalibrationReloaded, id: JSONValue?) -> String {
        line([
            ("type", .string("calibration-reloaded")), ("path", reloaded.path.map(JSONValue.string) ?? .null),
            ("calibration", .string(reloaded.parts)), ("mag_accuracy", reloaded.magnetometerAccuracy.map(JSONValue.string) ?? .null),
        ], id: id)
    }

    public static func pong(id: JSONValue?) -> String { line([("type", .string("pong"))], id: id) }

    /// Told before the next line a client gets after it fell behind: how many lines it lost.
    public static func lost(_ count: Int) -> String {
        line([("type", .string("lost")), ("count", .number(Double(count)))], id: nil)
    }

    public static func error(_ message: String, id: JSONValue? = nil) -> String {
        line([("error", .string(message))], id: id)
    }

    /// The last line of an orderly close (the daemon stops).
    public static func bye(_ reason: String) -> String {
        line([("type", .string("bye")), ("reason", .string(reason))], id: nil)
    }

    static func line(_ members: [(String, JSONValue)], id: JSONValue?) -> String {
        JSONValue.object(id.map { members + [("id", $0)] } ?? members).text
    }
}
