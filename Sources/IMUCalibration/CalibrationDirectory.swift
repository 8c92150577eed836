import Foundation

/// Where calibration files live.
///
/// One place when the service is installed: its state directory (`/var/lib/imu`, made by
/// Scripts/install-service.sh, or `IMU_CALIBRATION_DIR` as the unit sets it) is where
/// `imu calibrate` writes (as root: `sudo imu calibrate …`) and where every command and the
/// service read, so what the README has you measure is what the service applies. Without the
/// service: the user's directory, then /etc/imu.
public enum CalibrationDirectory {
    /// The system-wide directory, for boards set up once by root (no service installed).
    public static let system = "/etc/imu"

    /// The installed service's state directory (systemd's `StateDirectory=imu`).
    public static let service = "/var/lib/imu"

    /// The one directory in force, when there is one: `IMU_CALIBRATION_DIR` (absolute), else the
    /// service's directory when it exists.
    public static func shared(environment: [String: String], serviceInstalled: Bool? = nil) -> String? {
        if let directory = environment["IMU_CALIBRATION_DIR"], directory.hasPrefix("/") { return directory }
        let installed = serviceInstalled ?? isDirectory(service)
        return installed ? service : nil
    }

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

    /// Where `imu calibrate` saves: the shared directory when the service is installed, else the
    /// system directory (`system: true`), else the user's, else the system directory (a user
    /// without a home).
    public static func forWriting(environment: [String: String], system: Bool = false, serviceInstalled: Bool? = nil) -> String {
        if let shared = shared(environment: environment, serviceInstalled: serviceInstalled) { return shared }
        if system { return Self.system }
        return user(environment: environment) ?? Self.system
    }

    /// Where to look, first match wins: the user's directory, then the system one.
    /// With the service installed, only its directory.
    public static func searchPath(environment: [String: String], serviceInstalled: Bool? = nil) -> [String] {
        if let shared = shared(environment: environment, serviceInstalled: serviceInstalled) { return [shared] }
        return [user(environment: environment), system].compactMap { $0 }
    }

    /// The calibration file of `chip` in `directory`.
    public static func path(for chip: ChipIdentity, in directory: String) -> String {
        join(directory, chip.fileName)
    }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
