/// How the daemon talks to an MQTT broker: the `[mqtt]` table of the rules file, or `--mqtt URL`.
///
/// ```toml
/// [mqtt]
/// url = "mqtts://broker.local:8883"     # mqtt://host[:1883] or mqtts://host[:8883]
/// username = "imu-kitchen"
/// password-file = "/etc/imu/mqtt-password"   # never the password itself
/// ca-file = "/etc/imu/broker-ca.pem"
/// device-id = "kitchen"                  # default: the host name, made topic-safe
/// motion-interval-ms = 1000
/// qos = 1
/// ```
public struct MQTTSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var tls: Bool
    public var username: String?
    /// A file whose first line is the password (kept out of the command line, config and logs).
    public var passwordFile: String?
    /// The CA certificate(s) that sign the broker's certificate (PEM); nil: the system's.
    public var caFile: String?
    public var clientID: String?
    /// The `<device-id>` of `imu/<device-id>/…` and Home Assistant's identifiers: `[a-zA-Z0-9_-]`.
    public var deviceID: String
    public var discoveryPrefix: String
    /// How often `imu/<device-id>/motion` is published, in milliseconds.
    public var motionIntervalMilliseconds: Int
    /// The QoS of events (motion is always 0: a newer value replaces a lost one).
    public var qos: Int
    /// Events kept while the broker is unreachable; past this the oldest are dropped (and counted).
    public var queueLimit: Int
    /// Whether `imu/<device-id>/command` is obeyed.
    public var allowCommands: Bool

    public init(
        host: String, port: Int, tls: Bool, deviceID: String, username: String? = nil, passwordFile: String? = nil,
        caFile: String? = nil, clientID: String? = nil, discoveryPrefix: String = "homeassistant",
        motionIntervalMilliseconds: Int = 1000, qos: Int = 1, queueLimit: Int = 1000, allowCommands: Bool = false
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.deviceID = deviceID
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.clientID = clientID
        self.discoveryPrefix = discoveryPrefix
        self.motionIntervalMilliseconds = motionIntervalMilliseconds
        self.qos = qos
        self.queueLimit = queueLimit
        self.allowCommands = allowCommands
    }

    /// `mqtt://host[:port]` or `mqtts://host[:port]` (IPv6 in brackets); nil with the reason otherwise.
    public static func parseURL(_ url: String) -> Result<(host: String, port: Int, tls: Bool), URLProblem> {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst("mqtt://".count)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst("mqtts://".count)
        } else {
            return .failure(URLProblem("must start with mqtt:// or mqtts://"))
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.contains("/"), !authority.contains("@"), !authority.contains("?") else {
            return .failure(URLProblem("must be just mqtt://host:port (credentials go in username and password-file)"))
        }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return .failure(URLProblem("has an unclosed [ in its host")) }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return .failure(URLProblem("has text after its host")) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._:".contains($0) }) else {
            return .failure(URLProblem("needs a host name or address"))
        }
        var port = tls ? 8883 : 1883
        if let portText {
            guard let p = Int(portText), (1...65535).contains(p) else { return .failure(URLProblem("has a port that is not 1–65535")) }
            port = p
        }
        return .success((String(host), port, tls))
    }

    public struct URLProblem: Error, Equatable, Sendable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `[a-zA-Z0-9_-]` only (MQTT topic levels and Home Assistant's ids): other characters
    /// become `_`, the result lower-cased; empty becomes `imu`.
    public static func topicSafe(_ name: String) -> String {
        let mapped = String(name.lowercased().map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_") ? c : "_"
        })
        return mapped.isEmpty ? "imu" : mapped
    }

    public static func isTopicSafe(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    // Topics.
    public var baseTopic: String { "imu/\(deviceID)" }
    public var availabilityTopic: String { "\(baseTopic)/availability" }
    public var eventTopic: String { "\(baseTopic)/event" }
    public func eventTopic(type: String) -> String { "\(baseTopic)/event/\(type)" }
    public var motionTopic: String { "\(baseTopic)/motion" }
    public var healthTopic: String { "\(baseTopic)/health" }
    public var commandTopic: String { "\(baseTopic)/command" }
    public var commandResultTopic: String { "\(baseTopic)/command/result" }
    public var homeAssistantStatusTopic: String { "\(discoveryPrefix)/status" }
}
