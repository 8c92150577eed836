/// What a client may send: one JSON object a line (Docs/protocol.md, "Requests").
///
///     {"op":"subscribe","stream":"motion","rate_hz":50}
///     {"op":"subscribe","stream":"events","types":["shake","orientation"]}
///     {"op":"unsubscribe","stream":"motion"}      {"op":"unsubscribe"} (everything)
///     {"op":"hello"}   {"op":"ping","id":7}
///     {"op":"reload-calibration"}   (after `imu calibrate` saved a new one)
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
}

/// The streams a client can subscribe to (the engine's outputs).
public enum ShareStream: String, CaseIterable, Sendable, Comparable {
    /// Raw samples in device axes: the lines of `imu read --format jsonl`.
    case samples
    /// Calibrated, fused device motion: the lines of `imu stream --format jsonl`.
    case motion
    /// Recognised events: the lines of `imu events --format jsonl`.
    case events
    /// The engine's health: outages, lost samples, calibration accuracy.
    case health

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
    public static let eventTypes = ["shake", "orientation", "slap", "heading"]
    /// The longest id echoed back (a longer one is refused, not cut).
    public static let maximumIDLength = 128

    static let allowedKeys: [String: [String]] = [
        "subscribe": ["op", "id", "stream", "divisor", "rate_hz", "interval_ms", "types"],
        "unsubscribe": ["op", "id", "stream"],
        "hello": ["op", "id"],
        "ping": ["op", "id"],
        "reload-calibration": ["op", "id"],
    ]

    /// Reads one request line (without its newline).
    public static func parse(_ line: some Collection<UInt8>) throws(RequestError) -> IdentifiedRequest {
        let value: JSONValue
        do {
            value = try JSONText.parse(line)
        } catch {
            throw RequestError("\(error); a request is one JSON object a line, like {\"op\":\"subscribe\",\"stream\":\"motion\"}")
        }
        guard case .object(let members) = value else {
            throw RequestError("a request is a JSON object, not \(value.kind), like {\"op\":\"subscribe\",\"stream\":\"motion\"}")
        }
        func member(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
        var id: JSONValue?
        if let given = member("id") {
            switch given {
            case .number: id = given
            case .string(let s) where s.unicodeScalars.count <= maximumIDLength: id = given
            case .string: throw RequestError("\"id\" must be at most \(maximumIDLength) characters long")
            default: throw RequestError("\"id\" must be a number or a string, not \(given.kind)")
            }
        }
        guard let opValue = member("op") else {
            throw RequestError("a request needs \"op\": one of \(list(allowedKeys.keys.sorted()))", id: id)
        }
        guard case .string(let op) = opValue, let keys = allowedKeys[op] else {
            throw RequestError("\"op\" must be one of \(list(allowedKeys.keys.sorted())), not \(opValue.text.prefix(80))", id: id)
        }
        for (key, _) in members where !keys.contains(key) {
            throw RequestError(
                "unknown key \(JSONText.quoted(String(key.prefix(80)))) in a \(op) request; it takes \(list(keys))", id: id)
        }
        func stream(required: Bool) throws(RequestError) -> ShareStream? {
            guard let given = member("stream") else {
                if required { throw RequestError("\(op) needs \"stream\": one of \(list(ShareStream.allCases.map(\.rawValue)))", id: id) }
                return nil
            }
            guard case .string(let name) = given, let stream = ShareStream(rawValue: name) else {
                throw RequestError(
                    "\"stream\" must be one of \(list(ShareStream.allCases.map(\.rawValue))), not \(given.text.prefix(80))", id: id)
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
        var options = SubscribeOptions(stream: try stream(required: true)!)
        let rates = ["divisor", "rate_hz", "interval_ms"].filter { member($0) != nil }
        if rates.count > 1 {
            throw RequestError("give one of \"divisor\", \"rate_hz\" and \"interval_ms\", not \(rates.count)", id: id)
        }
        if let key = rates.first {
            guard options.stream == .motion else {
                throw RequestError("\"\(key)\" applies to the motion stream only (samples come at the engine's rate)", id: id)
            }
            guard case .number(let n) = member(key)! else {
                throw RequestError("\"\(key)\" must be a number, not \(member(key)!.kind)", id: id)
            }
            switch key {
            case "divisor":
                guard n == n.rounded(), n >= 1, n <= 10000 else {
                    throw RequestError("\"divisor\" must be a whole number from 1 to 10000 (every n-th update), not \(JSONText.number(n))", id: id)
                }
                options.rate = .divisor(Int(n))
            case "rate_hz":
                guard n >= 0.001, n <= 10000 else {
                    throw RequestError("\"rate_hz\" must be from 0.001 to 10000 (motion lines a second), not \(JSONText.number(n))", id: id)
                }
                options.rate = .rateHz(n)
            default:
                guard n >= 0.1, n <= 3_600_000 else {
                    throw RequestError("\"interval_ms\" must be from 0.1 to 3600000 milliseconds, not \(JSONText.number(n))", id: id)
                }
                options.rate = .intervalMilliseconds(n)
            }
        }
        if let given = member("types") {
            guard options.stream == .events else {
                throw RequestError("\"types\" applies to the events stream only", id: id)
            }
            guard case .array(let items) = given, !items.isEmpty else {
                throw RequestError("\"types\" must be a non-empty array of event types from \(list(eventTypes))", id: id)
            }
            var types: [String] = []
            for item in items {
                guard case .string(let name) = item, eventTypes.contains(name) else {
                    throw RequestError("unknown event type \(item.text.prefix(80)) in \"types\"; the types are \(list(eventTypes))", id: id)
                }
                if !types.contains(name) { types.append(name) }
            }
            options.eventTypes = types
        }
        return IdentifiedRequest(id: id, .subscribe(options))
    }

    /// The request written as a line (without the newline) that `parse` reads back as itself.
    public var jsonLine: String {
        var members: [(String, JSONValue)] = []
        switch request {
        case .hello: members.append(("op", .string("hello")))
        case .ping: members.append(("op", .string("ping")))
        case .reloadCalibration: members.append(("op", .string("reload-calibration")))
        case .unsubscribe(let stream):
            members.append(("op", .string("unsubscribe")))
            if let stream { members.append(("stream", .string(stream.rawValue))) }
        case .subscribe(let options):
            members.append(("op", .string("subscribe")))
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

    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }
}
