import Foundation
import IMUConfigFile

/// What a WebSocket client may ask, one JSON object per message: the local socket's requests
/// (`{"op":"subscribe","stream":"motion","rate_hz":50}`, `{"op":"subscribe","stream":"events",
/// "types":["shake"]}`, `{"op":"unsubscribe","stream":"motion"}`, `{"op":"unsubscribe"}`; see
/// Docs/protocol.md), or several streams at once:
/// `{"subscribe": ["motion", "events"], "rate_hz": 50, "events": ["shake", "slap"]}` and
/// `{"unsubscribe": ["motion"]}`. Anything else is answered with `{"error": …}` and the
/// connection stays.
public struct ClientRequest: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case subscribe(Set<WebStream>, motionRateHz: Double?, eventTypes: Set<String>?)
        case unsubscribe(Set<WebStream>)
    }

    public var action: Action

    public static let eventTypes: Set<String> = ["shake", "orientation", "slap", "heading"]

    /// The request in `text`, or why it is not one (the message for the `{"error": …}` line).
    public static func parse(_ text: String) -> Result<ClientRequest, RequestProblem> {
        let data = Data(text.utf8)
        guard let keys = try? JSONDecoder().decode([String: Anything].self, from: data) else {
            return .failure(.init("not a JSON object"))
        }
        if keys["op"] != nil { return parseOperation(data, keys: Set(keys.keys)) }
        let isSubscribe = keys["subscribe"] != nil
        guard isSubscribe != (keys["unsubscribe"] != nil) else {
            return .failure(.init("expected one of \"subscribe\" or \"unsubscribe\""))
        }
        let known: Set<String> = isSubscribe ? ["subscribe", "rate_hz", "events"] : ["unsubscribe"]
        if let extra = keys.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(.init("unknown key \"\(extra)\" (expected \(known.sorted().joined(separator: ", ")))"))
        }
        let streamList = WebStream.allCases.map(\.rawValue).joined(separator: ", ")
        let verb = isSubscribe ? "subscribe" : "unsubscribe"
        guard let fields = try? JSONDecoder().decode(Fields.self, from: data),
              let names = isSubscribe ? fields.subscribe : fields.unsubscribe, !names.isEmpty
        else {
            // Which field is wrong, for the message.
            if (try? JSONDecoder().decode(Fields.self, from: data)) == nil, keys["rate_hz"] != nil,
               (try? JSONDecoder().decode(RateOnly.self, from: data)) == nil {
                return .failure(.init(rateProblem))
            }
            if (try? JSONDecoder().decode(Fields.self, from: data)) == nil, keys["events"] != nil,
               (try? JSONDecoder().decode(EventsOnly.self, from: data)) == nil {
                return .failure(.init("\"events\" must be a list of event types: " + eventTypes.sorted().joined(separator: ", ")))
            }
            return .failure(.init("\"\(verb)\" must be a list of streams: \(streamList)"))
        }
        var streams = Set<WebStream>()
        for name in names {
            guard let stream = WebStream(rawValue: name) else {
                return .failure(.init("unknown stream \"\(name)\" (expected \(streamList))"))
            }
            streams.insert(stream)
        }
        guard isSubscribe else { return .success(.init(action: .unsubscribe(streams))) }
        if let rate = fields.rate_hz, !(rate >= 0.001 && rate <= 1000) {
            return .failure(.init(rateProblem))
        }
        if let unknown = fields.events?.first(where: { !eventTypes.contains($0) }) {
            return .failure(.init("unknown event type \"\(unknown)\" (expected \(eventTypes.sorted().joined(separator: ", ")))"))
        }
        return .success(.init(action: .subscribe(streams, motionRateHz: fields.rate_hz, eventTypes: fields.events.map(Set.init))))
    }

    /// The local socket's form: one stream per request.
    private static func parseOperation(_ data: Data, keys: Set<String>) -> Result<ClientRequest, RequestProblem> {
        guard let fields = try? JSONDecoder().decode(Operation.self, from: data) else {
            return .failure(.init("\"op\" must be \"subscribe\" or \"unsubscribe\", \"stream\" a stream name, \"rate_hz\" and \"interval_ms\" numbers, \"types\" a list of event types"))
        }
        let known: Set<String> = fields.op == "subscribe" ? ["op", "stream", "rate_hz", "interval_ms", "types", "id"] : ["op", "stream", "id"]
        guard fields.op == "subscribe" || fields.op == "unsubscribe" else {
            return .failure(.init("op \"\(fields.op)\" is not served here (expected subscribe or unsubscribe)"))
        }
        if let extra = keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(.init("unknown key \"\(extra)\" (expected \(known.sorted().joined(separator: ", ")))"))
        }
        let streamList = WebStream.allCases.map(\.rawValue).joined(separator: ", ")
        var streams = Set(WebStream.allCases)
        if let name = fields.stream {
            guard let stream = WebStream(rawValue: name) else {
                return .failure(.init("unknown stream \"\(name)\" (expected \(streamList))"))
            }
            streams = [stream]
        } else if fields.op == "subscribe" {
            return .failure(.init("\"stream\" is needed: one of \(streamList)"))
        }
        guard fields.op == "subscribe" else { return .success(.init(action: .unsubscribe(streams))) }
        // Each number in its range before it is used (issue 25: 1e30 ms became a divisor too large for an Int).
        if let interval = fields.interval_ms, !(interval >= 1 && interval <= 3_600_000) {
            return .failure(.init("\"interval_ms\" must be from 1 to 3600000 milliseconds between motion lines"))
        }
        let rate = fields.rate_hz ?? fields.interval_ms.map { 1000 / $0 }
        if let rate, !(rate >= 0.001 && rate <= 1000) {
            return .failure(.init(rateProblem))
        }
        if let unknown = fields.types?.first(where: { !eventTypes.contains($0) }) {
            return .failure(.init("unknown event type \"\(unknown)\" (expected \(eventTypes.sorted().joined(separator: ", ")))"))
        }
        return .success(.init(action: .subscribe(streams, motionRateHz: rate, eventTypes: fields.types.map(Set.init))))
    }

    static let rateProblem = "\"rate_hz\" must be from 0.001 to 1000 motion lines a second"

    private struct Operation: Decodable {
        var op: String
        var stream: String?
        var rate_hz: Double?
        var interval_ms: Double?
        var types: [String]?
    }

    private struct Fields: Decodable {
        var subscribe: [String]?
        var unsubscribe: [String]?
        var rate_hz: Double?
        var events: [String]?
    }
    private struct RateOnly: Decodable { var rate_hz: Double? }
    private struct EventsOnly: Decodable { var events: [String]? }
    /// Any JSON value (only the keys are looked at).
    private struct Anything: Decodable { init(from decoder: any Decoder) throws {} }

    public struct RequestProblem: Error, Equatable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}

/// The streams a dashboard client can subscribe to: the engine's four, and the daemon's rule
/// firings (with GPIO levels) and calibration progress.
public enum WebStream: String, CaseIterable, Sendable {
    case samples, motion, events, health, rules, calibration
}

/// JSON text helpers (the lines are built by hand, like the rest of the project's JSON lines).
enum JSONText {
    static func string(_ s: String) -> String { QuotedString.json(s) }

    static func number(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "null" }
        return String(format: "%.\(places)f", value)
    }

    static func error(_ message: String) -> String { "{\"error\":\(string(message))}" }
}
