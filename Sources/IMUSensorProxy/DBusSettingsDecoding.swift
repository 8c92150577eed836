import IMUConfigFile

/// The rules file's `[dbus]` table: whether `imu run` offers iio-sensor-proxy's interface, and
/// on which bus. The command line's `--dbus` replaces it.
///
/// ```toml
/// [dbus]
/// bus = "system"               # "system", "session" or "none" (default)
/// ```
public struct DBusFileSettings: Equatable, Sendable {
    /// "system", "session" or "none"; nil when the file does not say.
    public var bus: String?

    public init() {}

    public static let buses = ["system", "session", "none"]

    /// The table of a rules file, checked like the rest of it (file:line:column and what was
    /// expected); the default when it has none.
    public static func load(from file: ConfigurationFile) throws(ConfigFileError) -> DBusFileSettings {
        try parse(file.text, file: file.path)
    }

    public static func parse(_ text: String, file: String) throws(ConfigFileError) -> DBusFileSettings {
        try DBusTableDecoder(text: text, file: file).decode()
    }
}

struct DBusTableDecoder: TOMLTableDecoder {
    let file: String
    let locator: TOMLLocator

    static let expected: [String: String] = [
        "dbus": "a table, written [dbus]",
        "bus": "one of \"system\", \"session\", \"none\"",
    ]

    func decode() throws(ConfigFileError) -> DBusFileSettings {
        var settings = DBusFileSettings()
        guard let value = locator.root["dbus"] else { return settings }
        guard let t = value.table else { throw mustBe("dbus", value, table: nil, index: nil) }
        try checkKeys(t, allowed: ["bus"], table: "dbus", index: nil, what: "[dbus]")
        if let bus = try string(t, "bus", required: false, table: "dbus") {
            guard DBusFileSettings.buses.contains(bus) else { throw mustBe("bus", t["bus"]!, table: "dbus", index: nil) }
            settings.bus = bus
        }
        return settings
    }
}
