import Testing

/// The hostile-client suite's one table: every hostile input or behaviour once, and for each
/// front end what the peer must get back (the documented refusal or answer), or why the case
/// does not apply there. The adapters (Hostile*Adapter.swift) carry a case to their transport;
/// HostileClientTests runs every row on every transport against one `imu run` and checks the
/// same aftermath each time (alive, a well-behaved client still served, nothing changed, no
/// descriptors or memory kept).
enum HostileCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case garbageBytes = "garbage bytes"
    case invalidUTF8 = "invalid UTF-8"
    case hugeMessage = "a message over the size limit"
    case deepNesting = "JSON nested 4000 deep"
    case wrongTypes = "fields of the wrong type"
    case rateTiny = "rate_hz 1e-20"
    case rateHuge = "rate_hz 1e30"
    case rateNegative = "rate_hz -1"
    case nanToken = "a NaN token"
    case intervalHuge = "interval_ms 1e30"
    case intervalZero = "interval_ms 0"
    case unknownOp = "an unknown op"
    case controlWithoutCredentials = "a state change without the token or credentials"
    case foreignSite = "a web page of another site"
    case flood = "a flood of requests"
    case churn = "connect/disconnect churn"
    case neverReads = "a subscriber that never reads"
    case halfClose = "half-close"

    var testDescription: String { rawValue }

    /// The request, for the cases that are one message: the same bytes on every transport that
    /// carries messages (a socket line, a WebSocket text message, an MQTT payload).
    var message: [UInt8]? {
        switch self {
        case .garbageBytes: [0x00, 0x01, 0x7F, 0x80] + Array("}{ not json ][".utf8) + [0xC3]
        case .invalidUTF8: Array(#"{"op":"subscribe","stream":"mo"#.utf8) + [0xFF, 0xFE, 0xC0, 0xAF] + Array(#"tion"}"#.utf8)
        // Over every limit: the socket's 64 KiB line, the WebSocket's 16 KiB message, MQTT's 4096 bytes.
        case .hugeMessage: Array(#"{"op":"subscribe","stream":""#.utf8) + [UInt8](repeating: 0x61, count: 100_000) + Array(#""}"#.utf8)
        // Under every size limit (MQTT's 4096 bytes the smallest), so the parser itself meets it.
        case .deepNesting: [UInt8](repeating: UInt8(ascii: "["), count: 4000)
        case .wrongTypes: Array(#"{"op":"subscribe","stream":["motion"],"rate_hz":"fast"}"#.utf8)
        case .rateTiny: Array(#"{"op":"subscribe","stream":"motion","rate_hz":1e-20}"#.utf8)
        // The old WebSocket form (the alias), so both forms meet the validator.
        case .rateHuge: Array(#"{"subscribe":["motion"],"rate_hz":1e30}"#.utf8)
        case .rateNegative: Array(#"{"op":"subscribe","stream":"motion","rate_hz":-1}"#.utf8)
        case .nanToken: Array(#"{"op":"subscribe","stream":"motion","rate_hz":NaN,"command":NaN}"#.utf8)
        case .intervalHuge: Array(#"{"op":"subscribe","stream":"motion","interval_ms":1e30}"#.utf8)
        case .intervalZero: Array(#"{"subscribe":["motion"],"interval_ms":0}"#.utf8)
        case .unknownOp: Array(#"{"op":"format-disk","command":"format-disk"}"#.utf8)
        case .controlWithoutCredentials, .foreignSite, .flood, .churn, .neverReads, .halfClose: nil
        }
    }
}

enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case socket = "Unix socket"
    case webSocket = "WebSocket"
    case mqtt = "MQTT command topic"
    case dbus = "D-Bus (net.hadess.SensorProxy)"

    var testDescription: String { rawValue }
}

/// What a hostile peer must see.
enum Expected: Sendable, Equatable {
    /// A reply (socket line, WebSocket message, MQTT result, D-Bus error) that contains this text.
    case reply(String)
    /// The connection closed; on a WebSocket with this close code (nil: any close, or an HTTP status).
    case closed(code: Int?)
    /// An HTTP status line with this code (the dashboard's POST endpoints).
    case status(Int)
    /// Nothing to see for the peer: the aftermath checks are the test.
    case survived
    case notApplicable(why: String)
}

extension HostileCase {
    static let everyOneAnswered = "answered every one"
    static let floodCount = 500
    static let floodRequest = #"{"op":"unsubscribe","stream":"gps"}"#
    static let notJSON = "a request is one JSON object a line"
    static let mqttNotJSON = #"expected a JSON object like {\"command\": \"reload\"}"#
    static let noNumbersOnMQTT = "the command topic takes no numbers, only {\"command\": NAME}: the payload is refused as a command without a name (the row \"fields of the wrong type\" shows that refusal)"
    static let busValidates = "the bus (dbus-daemon) validates every message before the daemon sees one: a malformed message, invalid UTF-8 in a string or nesting past 32 never reaches it"
    static let noNumbersOnDBus = "no method of net.hadess.SensorProxy takes a number"
    static let brokerHoldsConnections = "MQTT peers connect to the broker, never to the daemon; the broker holds their connections and queues"

    /// The table: per transport, the documented answer or why the case does not apply.
    var expected: [Transport: Expected] {
        switch self {
        case .garbageBytes: [
            .socket: .reply(Self.notJSON),
            // Bytes that are no frame (the first reads as an unmasked one): RFC 6455 §5.1.
            .webSocket: .closed(code: 1002),
            .mqtt: .reply(Self.mqttNotJSON),
            .dbus: .notApplicable(why: Self.busValidates)]
        case .invalidUTF8: [
            .socket: .reply("expected UTF-8 text"),
            .webSocket: .closed(code: 1007),
            // Decoded with U+FFFD as the broker callback decodes it: JSON without a "command".
            .mqtt: .reply(#"\"command\" is missing or not a string"#),
            .dbus: .notApplicable(why: Self.busValidates)]
        case .hugeMessage: [
            .socket: .reply("longer than"),
            .webSocket: .closed(code: 1009),
            .mqtt: .reply(#""reason":"too large""#),
            // A string argument to a method that takes none: refused by its signature.
            .dbus: .reply("org.freedesktop.DBus.Error.InvalidArgs")]
        case .deepNesting: [
            .socket: .reply("levels of nesting"),
            .webSocket: .reply("levels of nesting"),
            .mqtt: .reply(Self.mqttNotJSON),
            .dbus: .notApplicable(why: Self.busValidates)]
        case .wrongTypes: [
            .socket: .reply(#"\"stream\" must be one of"#),
            .webSocket: .reply(#"\"stream\" must be one of"#),
            .mqtt: .reply(#"\"command\" is missing or not a string"#),
            // ClaimAccelerometer with an argument of the wrong type (it takes none).
            .dbus: .reply("org.freedesktop.DBus.Error.InvalidArgs")]
        case .rateTiny, .rateHuge, .rateNegative: [
            .socket: .reply(#"\"rate_hz\" must be from 0.001 to 10000"#),
            .webSocket: .reply(#"\"rate_hz\" must be from 0.001 to 10000"#),
            .mqtt: .notApplicable(why: Self.noNumbersOnMQTT),
            .dbus: .notApplicable(why: Self.noNumbersOnDBus)]
        case .nanToken: [
            .socket: .reply(Self.notJSON),
            .webSocket: .reply(Self.notJSON),
            .mqtt: .reply(Self.mqttNotJSON),
            .dbus: .notApplicable(why: Self.noNumbersOnDBus)]
        case .intervalHuge, .intervalZero: [
            .socket: .reply(#"\"interval_ms\" must be from 0.1 to 3600000"#),
            .webSocket: .reply(#"\"interval_ms\" must be from 0.1 to 3600000"#),
            .mqtt: .notApplicable(why: Self.noNumbersOnMQTT),
            .dbus: .notApplicable(why: Self.noNumbersOnDBus)]
        case .unknownOp: [
            .socket: .reply(#"\"op\" must be one of"#),
            .webSocket: .reply(#"\"op\" must be one of"#),
            .mqtt: .reply("unknown command; known:"),
            .dbus: .reply("org.freedesktop.DBus.Error.UnknownMethod")]
        case .controlWithoutCredentials: [
            // reload-calibration from a user outside the socket's group (uid 65534, via setpriv).
            .socket: .reply("reload-calibration changes the daemon's state: only root and members of the socket's group"),
            // POST /api/calibration/gyroscope on loopback without the token.
            .webSocket: .status(401),
            .mqtt: .notApplicable(why: "MQTT's credential is the broker's account and ACL: with allow-commands = true whoever may publish to imu/<id>/command may calibrate (Docs/mqtt.md); a retained command nobody sent now is ignored and cleared (MQTTSafetyTests.aRetainedCommandIsIgnoredAndCleared: it needs a daemon that starts after it)"),
            // ReleaseAccelerometer and ReleaseCompass from a second connection while monitor-sensor
            // holds its claim: answered, and they release nothing of another connection's.
            .dbus: .reply("method return")]
        case .foreignSite: [
            .socket: .notApplicable(why: "a browser cannot open a Unix socket"),
            // An upgrade with another site's Origin (cross-site WebSocket hijacking): 403; one
            // whose Host is not loopback (DNS rebinding): 421.
            .webSocket: .status(403),
            .mqtt: .notApplicable(why: Self.brokerHoldsConnections),
            .dbus: .notApplicable(why: "a browser cannot reach the bus")]
        // Socket and WebSocket: 500 bad requests in one write, each answered with an error (the
        // WebSocket answers no good request but subscribe's data); MQTT: 100 commands from one
        // publisher, each answered (here refused as unknown) or refused as busy.
        case .flood: [
            .socket: .reply(HostileCase.everyOneAnswered),
            .webSocket: .reply(HostileCase.everyOneAnswered),
            .mqtt: .reply(HostileCase.everyOneAnswered),
            .dbus: .survived]
        case .churn: [
            .socket: .survived,
            .webSocket: .survived,
            .mqtt: .notApplicable(why: Self.brokerHoldsConnections),
            // Connections that claim and leave without releasing: released by the daemon.
            .dbus: .survived]
        case .neverReads: [
            .socket: .survived,
            .webSocket: .survived,
            .mqtt: .notApplicable(why: Self.brokerHoldsConnections),
            .dbus: .notApplicable(why: "the bus daemon buffers for its clients (and drops one that never reads); the daemon only sends it signals")]
        case .halfClose: [
            // Documented: a client may shut down its writing side and still receive.
            .socket: .reply(#""quat_w""#),
            // A WebSocket ends with a close frame; a TCP half-close instead is the end, answered
            // with a close (1000) and the connection's resources freed.
            .webSocket: .closed(code: 1000),
            .mqtt: .notApplicable(why: Self.brokerHoldsConnections),
            .dbus: .notApplicable(why: "a D-Bus connection is the bus daemon's; a half-closed one is its to close")]
        }
    }
}
