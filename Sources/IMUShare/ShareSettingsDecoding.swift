import IMUConfigFile
import IMUShareClient

/// The rules file's `[socket]` table: where and how `imu run` serves local programs. The
/// command line's `--socket` and `--no-socket` replace what it gives.
///
/// ```toml
/// [socket]
/// path = "/run/imu/imu.sock"   # absolute; default: the service's, else $XDG_RUNTIME_DIR/imu/imu.sock
/// enabled = false              # serve no socket (as --no-socket); default true
/// max-clients = 8              # connections at once, 1 to 1024; default 32
/// max-clients-per-user = 4     # of them from one uid, 1 to 1024; default 16
/// idle-seconds = 60            # a client without a request or a subscription this long is closed; 1 to 86400
/// ```
public struct SocketFileSettings: Equatable, Sendable {
    public var socketPath: String?
    public var socketEnabled = true
    public var maxClients: Int?
    public var maxClientsPerUser: Int?
    public var idleSeconds: Int?

    public init() {}

    /// The table of a rules file, checked like the rest of it (file:line:column and what was
    /// expected); the defaults when it has none.
    public static func load(from file: ConfigurationFile) throws(ConfigFileError) -> SocketFileSettings {
        try parse(file.text, file: file.path)
    }

    public static func parse(_ text: String, file: String) throws(ConfigFileError) -> SocketFileSettings {
        try SocketTableDecoder(text: text, file: file).decode()
    }

    /// The server's settings: this table's, `path` replaced by `--socket` (nil: the table's,
    /// else the default for who runs it).
    public func serverSettings(path: String?, serverName: String) -> ShareServer.Settings {
        var settings = ShareServer.Settings(path: path ?? socketPath ?? SocketLocation.serverPath())
        if let maxClients { settings.maxClients = maxClients }
        if let maxClientsPerUser { settings.maxClientsPerUser = maxClientsPerUser }
        if let idleSeconds { settings.idleSeconds = Double(idleSeconds) }
        settings.serverName = serverName
        return settings
    }
}

struct SocketTableDecoder: TOMLTableDecoder {
    let file: String
    let locator: TOMLLocator

    static let expected: [String: String] = [
        "socket": "a table, written [socket]",
        "path": "an absolute path of at most \(SocketLocation.maximumPathBytes) bytes, like \"/run/imu/imu.sock\"",
        "enabled": "true or false",
        "max-clients": "a whole number of connections from 1 to 1024",
        "max-clients-per-user": "a whole number of connections from 1 to 1024",
        "idle-seconds": "a whole number of seconds from 1 to 86400",
    ]

    func decode() throws(ConfigFileError) -> SocketFileSettings {
        var settings = SocketFileSettings()
        if let value = locator.root["socket"] {
            guard let t = value.table else { throw mustBe("socket", value, table: nil, index: nil) }
            try checkKeys(t, allowed: ["path", "enabled", "max-clients", "max-clients-per-user", "idle-seconds"], table: "socket", index: nil, what: "[socket]")
            if let path = try string(t, "path", required: false, table: "socket") {
                guard path.hasPrefix("/"), !path.hasSuffix("/"), path.utf8.count <= SocketLocation.maximumPathBytes else {
                    throw mustBe("path", t["path"]!, table: "socket", index: nil)
                }
                settings.socketPath = path
            }
            if let value = t["enabled"] {
                guard let flag = value.bool else { throw mustBe("enabled", value, table: "socket", index: nil) }
                settings.socketEnabled = flag
            }
            if let clients = try integer(t, "max-clients", required: false, table: "socket") {
                guard (1...1024).contains(clients) else { throw mustBe("max-clients", t["max-clients"]!, table: "socket", index: nil) }
                settings.maxClients = clients
            }
            if let clients = try integer(t, "max-clients-per-user", required: false, table: "socket") {
                guard (1...1024).contains(clients) else { throw mustBe("max-clients-per-user", t["max-clients-per-user"]!, table: "socket", index: nil) }
                settings.maxClientsPerUser = clients
            }
            if let seconds = try integer(t, "idle-seconds", required: false, table: "socket") {
                guard (1...86400).contains(seconds) else { throw mustBe("idle-seconds", t["idle-seconds"]!, table: "socket", index: nil) }
                settings.idleSeconds = seconds
            }
        }
        return settings
    }
}
