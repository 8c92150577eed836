import Foundation
import ArgumentParser
import IMUConfigFile
import IMUFrontEnd
import IMUSensorProxy
import IMUShare

/// `imu run`'s front ends for local programs: the Unix socket (Docs/protocol.md) and
/// iio-sensor-proxy's D-Bus interface for the desktop. The daemon starts them once it runs.
struct ShareOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Serve clients on this Unix socket.",
        discussion: "Default: $RUNTIME_DIRECTORY/imu.sock for the service, $XDG_RUNTIME_DIR/imu/imu.sock for a user, else /run/imu/imu.sock."))
    var socket: String?

    @Flag(help: "Serve no socket.")
    var noSocket = false

    @Option(help: "Offer iio-sensor-proxy's interface (net.hadess.SensorProxy: screen orientation, compass) on this bus: system, session or none (default: [dbus] bus in the rules file, else none).")
    var dbus: DBusChoice?

    enum DBusChoice: String, ExpressibleByArgument, CaseIterable {
        case system, session, none
    }

    func validate() throws {
        if noSocket, socket != nil { throw ValidationError("--socket and --no-socket exclude each other") }
    }

    /// What was asked for: the rules file's `[socket]` and `[dbus]` tables (checked, file:line),
    /// the command line's options over them. Trouble starting either is a warning and the
    /// daemon runs without that front end (its rules and MQTT do not depend on them).
    func frontEnds(config: ConfigurationFile?) throws -> [any FrontEnd] {
        let socketFile: SocketFileSettings, dbusFile: DBusFileSettings
        do {
            socketFile = try config.map { try SocketFileSettings.load(from: $0) } ?? SocketFileSettings()
            dbusFile = try config.map { try DBusFileSettings.load(from: $0) } ?? DBusFileSettings()
        } catch {
            throw CommandError("\(error)")
        }
        var frontEnds: [any FrontEnd] = []
        // --socket PATH serves (even when the file says enabled = false); --no-socket serves none.
        if !noSocket, socket != nil || socketFile.socketEnabled {
            frontEnds.append(SocketFrontEnd(settings: socketFile.serverSettings(path: socket, serverName: "imu \(IMUVersion.current)")))
        }
        if let bus = SensorProxyService.Bus(rawValue: dbus?.rawValue ?? dbusFile.bus ?? "none") {
            frontEnds.append(SensorProxyFrontEnd(bus: bus))
        }
        return frontEnds
    }
}
