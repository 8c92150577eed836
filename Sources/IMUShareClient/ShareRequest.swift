import IMUWire

/// What a client may send, on the local socket and on the dashboard's WebSocket alike: one JSON
/// object a line (a message on the WebSocket). Docs/protocol.md, "Requests".
///
///     {"op":"subscribe","stream":"motion","rate_hz":50}
///     {"op":"subscribe","stream":"events","types":["shake","orientation"]}
///     {"op":"unsubscribe","stream":"motion"}      {"op":"unsubscribe"} (everything)
///     {"op":"hello"}   {"op":"ping","id":7}
///     {"op":"reload-calibration"}   (after `imu calibrate` saved a new one)
///
/// and the dashboard's older list form, an alias that means one `op` request per stream named:
///
///     {"subscribe":["motion","events"],"rate_hz":50,"events":["shake"]}   {"unsubscribe":["motion"]}
///
/// `id` (a number or a string) is optional and comes back in the reply to that request.
public enum ShareRequest: Equatable, Sendable {
    case subscribe(SubscribeOptions)
    /// nil: every stream.
    case unsubscribe(ShareStream?)
    case hello
    case ping
    /// Read the chip's calibration file again and apply it from the next sample.
    case reloadCalibration

    /// The name a client writes in `op`.
    public var operation: String {
        switch self {
        case .subscribe: return "subscribe"
        case .unsubscribe: return "unsubscribe"
        case .hello: return "hello"
        case .ping: return "ping"
        case .reloadCalibration: return "reload-calibration"
        }
    }

    /// True for requests that change the daemon's state (not only what this client receives):
    /// served only to those allowed (the socket's group or root; the token on the web).
    public var changesState: Bool { self == .reloadCalibration }
}

/// The streams a client can subscribe to: the engine's outputs, and the daemon's own (served
/// by the dashboard; a server that does not offer a stream says so in its reply).
public enum ShareStream: String, CaseIterable, Sendable, Comparable {
    /// Raw samples in device axes: the lines of `imu read --format jsonl`.
    case samples
    /// Calibrated, fused device motion: the lines of `imu stream --format jsonl`.
    case motion
    /// Recognised events: the lines of `imu events --format jsonl`.
    case events
    /// The engine's health: outages, lost samples, calibration accuracy.
    case health
    /// The daemon's rule firings and GPIO levels (the dashboard).
    case rules
    /// Calibration progress of a calibration started from the page (the dashboard).
    case calibration

    /// What the engine produces (what the local socket serves).
    public static let engineStreams: [ShareStream] = [.samples, .motion, .events, .health]

    public static func < (a: ShareStream, b: ShareStream) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// How often a motion subscriber wants device motion; the server turns each into a divisor of
/// the engine's rate (every n-th update) and says the rate it gives in its reply.
public enum MotionRate: Equatable, Sendable {
    case divisor(Int)
    case rateHz(Double)
    case intervalMilliseconds(Double)

    /// The ranges the validator accepts (Docs/protocol.md).
    public static let divisors = 1...10000
    public static let ratesHz = 0.001...10000.0
    public static let intervalsMilliseconds = 0.1...3_600_000.0

    /// The largest divisor a rate turns into: one update in a billion, far past anything a client
    /// can wait for, and far inside `Int` on every platform.
    public static let maximumDivisor = 1_000_000_000

    /// Every n-th update of an engine running at `engineRateHz` (at least 1: never faster than the
    /// engine; at most `maximumDivisor`). Safe for any number, finite or not: the validator keeps
    /// clients' rates in range, but this is the line where a Double becomes an Int.
    public func divisor(engineRateHz: Double) -> Int {
        switch self {
        case .divisor(let n): return min(max(n, 1), Self.maximumDivisor)
        case .rateHz(let hz): return Self.wholeDivisor(engineRateHz / hz)
        case .intervalMilliseconds(let ms): return Self.wholeDivisor(ms / 1000 * engineRateHz)
        }
    }

    /// `updates` rounded to a whole divisor in 1...maximumDivisor; NaN (0/0, ∞/∞) gives 1.
    static func wholeDivisor(_ updates: Double) -> Int {
        guard updates >= 1 else { return 1 }
        let whole = updates.rounded()
        return whole < Double(maximumDivisor) ? Int(whole) : maximumDivisor
    }
}

public struct SubscribeOptions: Equatable, Sendable {
    public var stream: ShareStream
    /// Motion only; nil = every update.
    public var rate: MotionRate?
    /// Events only; nil = every type.
    public var eventTypes: [String]?

    public init(stream: ShareStream, rate: MotionRate? = nil, eventTypes: [String]? = nil) {
        self.stream = stream
        self.rate = rate
        self.eventTypes = eventTypes
    }
}

/// A request and the id its reply carries.
public struct IdentifiedRequest: Equatable, Sendable {
    public var id: JSONValue?
    public var request: ShareRequest

    public init(id: JSONValue? = nil, _ request: ShareRequest) {
        self.id = id
        self.request = request
    }
}

/// A line the server cannot act on: what was wrong, in words a person can act on, and the
/// request's id when it could be read.
public struct RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var id: JSONValue?

    public init(_ message: String, id: JSONValue? = nil) {
        self.message = message
        self.id = id
    }

    public var description: String { message }
}

extension IdentifiedRequest {
    /// The event types a subscriber can pick (what `imu events` prints in `type`).
    public static let eventTypes = EventKind.allCases.map(\.rawValue)
    /// The longest id echoed back (a longer one is refused, not cut).
    public static let maximumIDLength = 128

    static let allowedKeys: [String: [String]] = [
        "subscribe": ["op", "id", "stream", "divisor", "rate_hz", "interval_ms", "types"],
        "unsubscribe": ["op", "id", "stream"],
        "hello": ["op", "id"],
        "ping": ["op", "id"],
        "reload-calibration": ["op", "id"],
    ]
    /// The list form's keys (the rates as in the `op` form; `events` is its name for `types`).
    static let listFormKeys: [String: [String]] = [
        "subscribe": ["subscribe", "id", "divisor", "rate_hz", "interval_ms", "events"],
        "unsubscribe": ["unsubscribe", "id"],
    ]

    /// Reads one request line (without its newline) in either form: the requests it asks for, in
    /// order (one for the `op` form, one per stream named for the list form), or why it is none.
    /// Nothing is acted on when any part of a line is wrong.
    public static func requests(in line: some Collection<UInt8>) throws(RequestError) -> [IdentifiedRequest] {
        let value: JSONValue
        do {
            value = try JSONText.parse(line)
        } catch {
            throw RequestError("\(error); a request is one JSON object a line, like {\"op\":\"subscribe\",\"stream\":\"motion\"}")
        }
        guard case .object(let members) = value else {
            throw RequestError("a request is a JSON object, not \(value.kind), like {\"op\":\"subscribe\",\"stream\":\"motion\"}")
        }
        let fields = Fields(members)
        let id = try fields.id()
        if fields["op"] == nil, fields["subscribe"] != nil || fields["unsubscribe"] != nil {
            return try listForm(fields, id: id)
        }
        return [try operationForm(fields, id: id)]
    }

    /// Reads one request line that asks for exactly one request (the `op` form, or the list form
    /// naming one stream).
    public static func parse(_ line: some Collection<UInt8>) throws(RequestError) -> IdentifiedRequest {
        let all = try requests(in: line)
        guard all.count == 1 else {
            throw RequestError("one request was expected, not \(all.count) (name one stream)", id: all.first?.id)
        }
        return all[0]
    }

    /// A request's members, looked up by name.
    struct Fields {
        let members: [(String, JSONValue)]
        init(_ members: [(String, JSONValue)]) { self.members = members }
        subscript(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }

        func id() throws(RequestError) -> JSONValue? {
            guard let given = self["id"] else { return nil }
            switch given {
            case .number: return given
            case .string(let s) where s.unicodeScalars.count <= maximumIDLength: return given
            case .string: throw RequestError("\"id\" must be at most \(maximumIDLength) characters long")
            default: throw RequestError("\"id\" must be a number or a string, not \(given.kind)")
            }
        }

        func checkKeys(_ keys: [String], what: String, id: JSONValue?) throws(RequestError) {
            for (key, _) in members where !keys.contains(key) {
                throw RequestError("unknown key \(JSONText.quoted(String(key.prefix(80)))) in \(what); it takes \(list(keys))", id: id)
            }
        }
    }

    static func operationForm(_ fields: Fields, id: JSONValue?) throws(RequestError) -> IdentifiedRequest {
        guard let opValue = fields["op"] else {
            throw RequestError(
                "a request needs \"op\": one of \(list(allowedKeys.keys.sorted())) (or is {\"subscribe\":[streams…]} or {\"unsubscribe\":[streams…]})", id: id)
        }
        guard case .string(let op) = opValue, let keys = allowedKeys[op] else {
            throw RequestError("\"op\" must be one of \(list(allowedKeys.keys.sorted())), not \(opValue.text.prefix(80))", id: id)
        }
        try fields.checkKeys(keys, what: "a \(op) request", id: id)
        func stream(required: Bool) throws(RequestError) -> ShareStream? {
            guard let given = fields["stream"] else {
                if required { throw RequestError("\(op) needs \"stream\": one of \(streamNames)", id: id) }
                return nil
            }
            guard case .string(let name) = given, let stream = ShareStream(rawValue: name) else {
                throw RequestError("\"stream\" must be one of \(streamNames), not \(given.text.prefix(80))", id: id)
            }
            return stream
        }
        switch op {
        case "hello": return IdentifiedRequest(id: id, .hello)
        case "ping": return IdentifiedRequest(id: id, .ping)
        case "reload-calibration": return IdentifiedRequest(id: id, .reloadCalibration)
        case "unsubscribe": return IdentifiedRequest(id: id, .unsubscribe(try stream(required: false)))
        default: break
        }
        let named = try stream(required: true)!
        var options = SubscribeOptions(stream: named)
        options.rate = try motionRate(fields, forMotion: named == .motion, streamWord: "the motion stream", id: id)
        options.eventTypes = try eventTypes(fields, key: "types", forEvents: named == .events, id: id)
        return IdentifiedRequest(id: id, .subscribe(options))
    }

    /// `{"subscribe":[…],…}` / `{"unsubscribe":[…]}`: one request per stream, in the order named.
    static func listForm(_ fields: Fields, id: JSONValue?) throws(RequestError) -> [IdentifiedRequest] {
        guard (fields["subscribe"] == nil) != (fields["unsubscribe"] == nil) else {
            throw RequestError("give one of \"subscribe\" and \"unsubscribe\", not both", id: id)
        }
        let verb = fields["subscribe"] != nil ? "subscribe" : "unsubscribe"
        try fields.checkKeys(listFormKeys[verb]!, what: "a {\"\(verb)\":[…]} request", id: id)
        guard case .array(let items) = fields[verb]!, !items.isEmpty else {
            throw RequestError("\"\(verb)\" must be a non-empty array of streams from \(streamNames)", id: id)
        }
        var streams: [ShareStream] = []
        for item in items {
            guard case .string(let name) = item, let stream = ShareStream(rawValue: name) else {
                throw RequestError("unknown stream \(item.text.prefix(80)) in \"\(verb)\"; the streams are \(streamNames)", id: id)
            }
            if !streams.contains(stream) { streams.append(stream) }
        }
        guard verb == "subscribe" else { return streams.map { IdentifiedRequest(id: id, .unsubscribe($0)) } }
        let rate = try motionRate(fields, forMotion: streams.contains(.motion), streamWord: "\"motion\" among the streams", id: id)
        let types = try eventTypes(fields, key: "events", forEvents: streams.contains(.events), id: id)
        return streams.map { stream in
            IdentifiedRequest(id: id, .subscribe(SubscribeOptions(
                stream: stream, rate: stream == .motion ? rate : nil, eventTypes: stream == .events ? types : nil)))
        }
    }

    /// The motion rate, if one is given: at most one of `divisor`, `rate_hz`, `interval_ms`, each
    /// range-checked here, before anything converts it.
    static func motionRate(_ fields: Fields, forMotion: Bool, streamWord: String, id: JSONValue?) throws(RequestError) -> MotionRate? {
        let rates = ["divisor", "rate_hz", "interval_ms"].filter { fields[$0] != nil }
        if rates.count > 1 {
            throw RequestError("give one of \"divisor\", \"rate_hz\" and \"interval_ms\", not \(rates.count)", id: id)
        }
        guard let key = rates.first else { return nil }
        guard forMotion else {
            throw RequestError("\"\(key)\" applies to \(streamWord) only (samples come at the engine's rate)", id: id)
        }
        guard case .number(let n) = fields[key]! else {
            throw RequestError("\"\(key)\" must be a number, not \(fields[key]!.kind)", id: id)
        }
        switch key {
        case "divisor":
            guard n == n.rounded(), n >= Double(MotionRate.divisors.lowerBound), n <= Double(MotionRate.divisors.upperBound) else {
                throw RequestError("\"divisor\" must be a whole number from 1 to 10000 (every n-th update), not \(JSONText.number(n))", id: id)
            }
            return .divisor(Int(n))
        case "rate_hz":
            guard MotionRate.ratesHz.contains(n) else {
                throw RequestError("\"rate_hz\" must be from 0.001 to 10000 (motion lines a second), not \(JSONText.number(n))", id: id)
            }
            return .rateHz(n)
        default:
            guard MotionRate.intervalsMilliseconds.contains(n) else {
                throw RequestError("\"interval_ms\" must be from 0.1 to 3600000 milliseconds, not \(JSONText.number(n))", id: id)
            }
            return .intervalMilliseconds(n)
        }
    }

    /// The event types picked (`types`, or `events` in the list form), each known, in order, once.
    static func eventTypes(_ fields: Fields, key: String, forEvents: Bool, id: JSONValue?) throws(RequestError) -> [String]? {
        guard let given = fields[key] else { return nil }
        guard forEvents else {
            throw RequestError("\"\(key)\" applies to the events stream only", id: id)
        }
        guard case .array(let items) = given, !items.isEmpty else {
            throw RequestError("\"\(key)\" must be a non-empty array of event types from \(list(eventTypes))", id: id)
        }
        var types: [String] = []
        for item in items {
            guard case .string(let name) = item, eventTypes.contains(name) else {
                throw RequestError("unknown event type \(item.text.prefix(80)) in \"\(key)\"; the types are \(list(eventTypes))", id: id)
            }
            if !types.contains(name) { types.append(name) }
        }
        return types
    }

    /// The request written as a line (without the newline) that `parse` reads back as itself.
    public var jsonLine: String {
        var members: [(String, JSONValue)] = [("op", .string(request.operation))]
        switch request {
        case .hello, .ping, .reloadCalibration: break
        case .unsubscribe(let stream):
            if let stream { members.append(("stream", .string(stream.rawValue))) }
        case .subscribe(let options):
            members.append(("stream", .string(options.stream.rawValue)))
            switch options.rate {
            case .divisor(let n)?: members.append(("divisor", .number(Double(n))))
            case .rateHz(let hz)?: members.append(("rate_hz", .number(hz)))
            case .intervalMilliseconds(let ms)?: members.append(("interval_ms", .number(ms)))
            case nil: break
            }
            if let types = options.eventTypes { members.append(("types", .array(types.map(JSONValue.string)))) }
        }
        if let id { members.append(("id", id)) }
        return JSONValue.object(members).text
    }

    static var streamNames: String { list(ShareStream.allCases.map(\.rawValue)) }
    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }
}
