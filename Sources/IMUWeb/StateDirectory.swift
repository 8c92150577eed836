import Foundation
import IMUCalibration
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's state directory, where the token lives: systemd's `$STATE_DIRECTORY` (the unit's
/// `StateDirectory=imu`), else the service's /var/lib/imu when it exists and this user may write
/// it, else `$XDG_STATE_HOME/imu`, else `~/.local/state/imu` with the home from `$HOME` or, when
/// that is unset (cron, `env -i`, containers), from the password database. Never a shared,
/// world-writable place such as /tmp: another user could put a token of their choosing there.
public enum StateDirectory {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            "no state directory for the dashboard's token: none of STATE_DIRECTORY, XDG_STATE_HOME or HOME is set "
                + "and this user has no home directory; set STATE_DIRECTORY=/a/directory/only/you/can/write "
                + "(a shared temporary directory is never used)"
        }
    }

    public static func path(environment: [String: String]) throws(Missing) -> String {
        let service = isWritableDirectory(CalibrationDirectory.service) ? CalibrationDirectory.service : nil
        guard let path = choose(environment: environment, serviceDirectory: service, accountHome: accountHome()) else { throw Missing() }
        return path
    }

    /// The choice itself, on what was found (pure, for tests).
    static func choose(environment: [String: String], serviceDirectory: String?, accountHome: String?) -> String? {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") { return String(state) }
        if let serviceDirectory { return serviceDirectory }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return joinPath(state, "imu") }
        if let home = environment["HOME"], home.hasPrefix("/"), home != "/" { return joinPath(home, ".local/state/imu") }
        if let home = accountHome, home.hasPrefix("/"), home != "/" { return joinPath(home, ".local/state/imu") }
        return nil
    }

    static func isWritableDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue && access(path, W_OK) == 0
    }

    /// This user's home directory from the password database (getpwuid_r), when it names one
    /// that exists (`/nonexistent` of system users does not).
    static func accountHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(geteuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: home, isDirectory: &isDirectory) && isDirectory.boolValue ? home : nil
    }
}
