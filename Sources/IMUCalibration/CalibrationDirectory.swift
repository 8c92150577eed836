/// Where calibration files live.
public enum CalibrationDirectory {
    /// The system-wide directory, for the daemon and for boards set up once by root.
    public static let system = "/etc/imu"

    /// The per-user directory: `$XDG_CONFIG_HOME/imu`, else `$HOME/.config/imu` (the XDG
    /// Base Directory rules: a relative `XDG_CONFIG_HOME` is invalid and ignored). nil when
    /// neither variable gives an absolute path.
    public static func user(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return join(config, "imu")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return join(join(home, ".config"), "imu")
        }
        return nil
    }

    /// Where `imu calibrate` saves: the system directory for the daemon (`system: true`),
    /// else the user's, else the system directory (a user without a home, such as a service).
    public static func forWriting(environment: [String: String], system: Bool = false) -> String {
        if system { return Self.system }
        return user(environment: environment) ?? Self.system
    }

    /// Where to look, first match wins: the user's directory, then the system one.
    public static func searchPath(environment: [String: String]) -> [String] {
        [user(environment: environment), system].compactMap { $0 }
    }

    /// The calibration file of `chip` in `directory`.
    public static func path(for chip: ChipIdentity, in directory: String) -> String {
        join(directory, chip.fileName)
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
