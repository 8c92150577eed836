import Foundation
import IMUConfigFile
import IMUFrontEnd

extension MQTTSettings {
    /// The `[mqtt]` table of a rules file, checked like the rest of it (file:line:column and what
    /// was expected), or nil when the file has none. `hostName` gives the default device id.
    public static func load(from file: ConfigurationFile, hostName: String = ProcessInfo.processInfo.hostName) throws(ConfigFileError) -> MQTTSettings? {
        try parse(file.text, file: file.path, hostName: hostName)
    }

    public static func parse(_ text: String, file: String, hostName: String) throws(ConfigFileError) -> MQTTSettings? {
        let decoder = try MQTTTableDecoder(text: text, file: file)
        return try decoder.decode(hostName: hostName)
    }

    /// `--mqtt URL` on the command line, with every other setting at its default.
    public static func fromURL(_ url: String, hostName: String = ProcessInfo.processInfo.hostName) -> Result<MQTTSettings, URLProblem> {
        parseURL(url).map { MQTTSettings(host: $0.host, port: $0.port, tls: $0.tls, deviceID: topicSafe(shortHostName(hostName))) }
    }

    static func shortHostName(_ name: String) -> String {
        String(name.split(separator: ".").first ?? Substring(name))
    }
}

struct MQTTTableDecoder: TOMLTableDecoder {
    let file: String
    let locator: TOMLLocator

    static let keys = [
        "url", "username", "password-file", "ca-file", "client-id", "device-id", "discovery-prefix", "motion-interval-ms",
        "qos", "queue-size", "allow-commands",
    ]

    static let expected: [String: String] = [
        "mqtt": "a table, written [mqtt]",
        "url": "a broker address like \"mqtt://broker.local:1883\" or \"mqtts://broker.local:8883\"",
        "username": "a string",
        "password-file": "the path of a file whose first line is the password, like \"/etc/imu/mqtt-password\"",
        "ca-file": "the path of a PEM file with the broker's CA certificate",
        "client-id": "a string of 1 to 23 letters, digits, - and _",
        "device-id": "a name of letters, digits, - and _, like \"kitchen-pi\"",
        "discovery-prefix": "a topic prefix of letters, digits, - and _, like \"homeassistant\"",
        "motion-interval-ms": "a whole number of milliseconds from 100 to 3600000",
        "qos": "0, 1 or 2",
        "queue-size": "a whole number of events from 1 to 100000",
        "allow-commands": "true or false",
    ]

    func decode(hostName: String) throws(ConfigFileError) -> MQTTSettings? {
        guard let value = locator.root["mqtt"] else { return nil }
        guard let t = value.table else { throw mustBe("mqtt", value, table: nil, index: nil) }
        let table = "mqtt"
        if t["password"] != nil {
            throw error("a password is never written in the rules file; put it in a file readable only by the service and name it with `password-file`",
                        key: "password", table: table)
        }
        try checkKeys(t, allowed: Self.keys, table: table, index: nil, what: "[mqtt]")
        let url = try string(t, "url", required: true, table: table)!
        let address: (host: String, port: Int, tls: Bool)
        switch MQTTSettings.parseURL(url) {
        case .success(let parsed): address = parsed
        case .failure(let problem): throw error("`url` in [mqtt] \(problem.reason), found \"\(url)\"", key: "url", table: table)
        }
        var settings = MQTTSettings(
            host: address.host, port: address.port, tls: address.tls,
            deviceID: MQTTSettings.topicSafe(MQTTSettings.shortHostName(hostName)))
        settings.username = try string(t, "username", required: false, table: table)
        settings.passwordFile = try string(t, "password-file", required: false, table: table)
        if settings.passwordFile != nil && settings.username == nil {
            throw error("`password-file` in [mqtt] needs a `username`", key: "password-file", table: table)
        }
        settings.caFile = try string(t, "ca-file", required: false, table: table)
        if settings.caFile != nil && !address.tls {
            throw error("`ca-file` in [mqtt] is for mqtts:// brokers; `url` is \"\(url)\"", key: "ca-file", table: table)
        }
        for (key, path) in [("password-file", settings.passwordFile), ("ca-file", settings.caFile)] {
            if let path, !path.hasPrefix("/") {
                throw error("`\(key)` in [mqtt] must be an absolute path, found \"\(path)\"", key: key, table: table)
            }
        }
        if let id = try string(t, "client-id", required: false, table: table) {
            guard (1...23).contains(id.count), MQTTSettings.isTopicSafe(id) else { throw mustBe("client-id", t["client-id"]!, table: table, index: nil) }
            settings.clientID = id
        }
        if let id = try string(t, "device-id", required: false, table: table) {
            guard MQTTSettings.isTopicSafe(id), id.count <= 64 else { throw mustBe("device-id", t["device-id"]!, table: table, index: nil) }
            settings.deviceID = id
        }
        if let prefix = try string(t, "discovery-prefix", required: false, table: table) {
            guard MQTTSettings.isTopicSafe(prefix), prefix.count <= 64 else {
                throw mustBe("discovery-prefix", t["discovery-prefix"]!, table: table, index: nil)
            }
            settings.discoveryPrefix = prefix
        }
        if let ms = try integer(t, "motion-interval-ms", required: false, table: table) {
            guard (100...3_600_000).contains(ms) else { throw mustBe("motion-interval-ms", t["motion-interval-ms"]!, table: table, index: nil) }
            settings.motionIntervalMilliseconds = ms
        }
        if let qos = try integer(t, "qos", required: false, table: table) {
            guard (0...2).contains(qos) else { throw mustBe("qos", t["qos"]!, table: table, index: nil) }
            settings.qos = qos
        }
        if let size = try integer(t, "queue-size", required: false, table: table) {
            guard (1...100_000).contains(size) else { throw mustBe("queue-size", t["queue-size"]!, table: table, index: nil) }
            settings.queueLimit = size
        }
        if let value = t["allow-commands"] {
            guard let flag = value.bool else { throw mustBe("allow-commands", value, table: table, index: nil) }
            settings.allowCommands = flag
        }
        return settings
    }
}

extension MQTTSettings {
    /// What the daemon publishes with: `[mqtt]` of the rules file (checked, file:line), its
    /// broker replaced by `--mqtt URL` (which alone also turns MQTT on); nil when neither is given.
    public static func resolve(rulesFile: ConfigurationFile?, url: String?) throws(FrontEndError) -> MQTTSettings? {
        var mqtt: MQTTSettings?
        do {
            if let rulesFile { mqtt = try MQTTSettings.load(from: rulesFile) }
        } catch {
            throw FrontEndError("\(error)")
        }
        guard let url else { return mqtt }
        switch parseURL(url) {
        case .success(let address):
            if mqtt == nil, case .success(let fresh) = fromURL(url) { mqtt = fresh }
            mqtt?.host = address.host
            mqtt?.port = address.port
            mqtt?.tls = address.tls
            return mqtt
        case .failure(let problem):
            throw FrontEndError("--mqtt \(problem.reason), not \"\(url)\"")
        }
    }
}
