import IMUConfigFile

extension HTTPSettings {
    /// The `[http]` table of a rules file, checked like the rest of it (file:line:column and what
    /// was expected), or nil when the file has none.
    public static func load(from file: ConfigurationFile) throws(ConfigFileError) -> HTTPSettings? {
        try parse(file.text, file: file.path)
    }

    public static func parse(_ text: String, file: String, listenGiven: Bool = false) throws(ConfigFileError) -> HTTPSettings? {
        try HTTPTableDecoder(text: text, file: file).decode(listenGiven: listenGiven)
    }

    /// What the daemon serves: `[http]` of the rules file with `listen` replaced by `--http`,
    /// which may also stand for a `listen` the table leaves out, or for the whole table. nil: off.
    /// `rulesFile`: nil when there is none (`imu token` without one).
    public static func resolve(rulesFile: ConfigurationFile?, listen override: String?) throws(HTTPSettingsError) -> HTTPSettings? {
        var address: (host: String, port: Int)?
        if let override {
            switch parseAddress(override) {
            case .success(let parsed): address = parsed
            case .failure(let problem): throw .init(description: "--http \(problem.reason), not \"\(override)\"")
            }
        }
        var settings: HTTPSettings?
        if let rulesFile {
            do {
                settings = try parse(rulesFile.text, file: rulesFile.path, listenGiven: address != nil)
            } catch {
                throw .init(description: "\(error)")
            }
        }
        guard let address else { return settings }
        var resolved = settings ?? HTTPSettings(host: address.host, port: address.port)
        resolved.host = address.host
        resolved.port = address.port
        return resolved
    }
}

public struct HTTPSettingsError: Error, CustomStringConvertible {
    public var description: String
}

struct HTTPTableDecoder: TOMLTableDecoder {
    let file: String
    let locator: TOMLLocator

    static let keys = ["listen", "allow-control", "max-clients"]

    static let expected: [String: String] = [
        "http": "a table, written [http]",
        "listen": "an address and port like \"127.0.0.1:8080\", \"0.0.0.0:8080\" or \"[::]:8080\"",
        "allow-control": "true or false",
        "max-clients": "a whole number of connections from 1 to 64",
    ]

    /// `listenGiven`: `--http` names the address, so the table may leave `listen` out.
    func decode(listenGiven: Bool) throws(ConfigFileError) -> HTTPSettings? {
        guard let value = locator.root["http"] else { return nil }
        guard let t = value.table else { throw mustBe("http", value, table: nil, index: nil) }
        let table = "http"
        try checkKeys(t, allowed: Self.keys, table: table, index: nil, what: "[http]")
        // Without `listen` (and `--http` standing for it) a placeholder address that the caller
        // replaces; a `listen` that is there is checked all the same.
        var address = (host: "127.0.0.1", port: 1)
        if let listen = try string(t, "listen", required: !listenGiven, table: table) {
            switch HTTPSettings.parseAddress(listen) {
            case .success(let parsed): address = parsed
            case .failure(let problem): throw error("`listen` in [http] \(problem.reason), found \"\(listen)\"", key: "listen", table: table)
            }
        }
        var settings = HTTPSettings(host: address.host, port: address.port)
        if let value = t["allow-control"] {
            guard let flag = value.bool else { throw mustBe("allow-control", value, table: table, index: nil) }
            settings.allowControl = flag
        }
        if let clients = try integer(t, "max-clients", required: false, table: table) {
            guard (1...64).contains(clients) else { throw mustBe("max-clients", t["max-clients"]!, table: table, index: nil) }
            settings.maxClients = clients
        }
        return settings
    }
}
