import Foundation
import ArgumentParser
import IMUDaemon
import IMUEngine
import IMUSensorProxy
import IMUShare
import Logging

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
    func frontEnds(config: String?, log: Logger) throws -> [any DaemonFrontEnd] {
        let file: ShareFileSettings
        do {
            file = try config.map { try ShareFileSettings.load(fromConfigFile: $0) } ?? ShareFileSettings()
        } catch {
            throw CommandError("\(error)")
        }
        let note: @Sendable (ShareServer.Note) -> Void = { note in
            switch note {
            case .info(let text): log.info("\(text)")
            case .warning(let text): log.warning("\(text)")
            }
        }
        var frontEnds: [any DaemonFrontEnd] = []
        // --socket PATH serves (even when the file says enabled = false); --no-socket serves none.
        if !noSocket, socket != nil || file.socketEnabled {
            var settings = ShareServer.Settings(path: socket ?? file.socketPath ?? SocketLocation.serverPath())
            if let maxClients = file.maxClients { settings.maxClients = maxClients }
            if let perUser = file.maxClientsPerUser { settings.maxClientsPerUser = perUser }
            if let idle = file.idleSeconds { settings.idleSeconds = Double(idle) }
            settings.serverName = "imu \(IMUVersion.current)"
            frontEnds.append(SocketFrontEnd(settings: settings, note: note))
        }
        if let bus = SensorProxyService.Bus(rawValue: dbus?.rawValue ?? file.dbusBus ?? "none") {
            frontEnds.append(SensorProxyFrontEnd(bus: bus, note: note))
        }
        return frontEnds
    }
}

final class SocketFrontEnd: DaemonFrontEnd {
    let settings: ShareServer.Settings
    let note: @Sendable (ShareServer.Note) -> Void
    var server: ShareServer?

    init(settings: ShareServer.Settings, note: @escaping @Sendable (ShareServer.Note) -> Void) {
        self.settings = settings
        self.note = note
    }

    func start(engine: MotionEngine) throws {
        try start(feed: EngineFeed(engine: engine))
    }

    /// With the daemon's calibration search path, so a client may ask it to reload (after
    /// `imu calibrate` through the socket).
    func start(daemon: Daemon) throws {
        try start(feed: EngineFeed(engine: daemon.engine, calibrationSearchPath: daemon.settings.calibrationSearchPath))
    }

    private func start(feed: EngineFeed) throws {
        let server = ShareServer(settings: settings, feed: feed, note: note)
        do {
            try server.start()
        } catch {
            // A user without a runtime folder of their own lands on the service's /run/imu.
            let hint = settings.path.hasPrefix("/run/imu/") && getuid() != 0
                ? " (the service's folder; as a user give --socket PATH, e.g. --socket /tmp/imu-$USER.sock, or log in so that XDG_RUNTIME_DIR is set)"
                : ""
            throw CommandError("no local socket: \(error)\(hint)")
        }
        self.server = server
    }

    func stop() { server?.stop() }
}

final class SensorProxyFrontEnd: DaemonFrontEnd {
    let bus: SensorProxyService.Bus
    let note: @Sendable (ShareServer.Note) -> Void
    var service: SensorProxyService?

    init(bus: SensorProxyService.Bus, note: @escaping @Sendable (ShareServer.Note) -> Void) {
        self.bus = bus
        self.note = note
    }

    func start(engine: MotionEngine) throws {
        let service = SensorProxyService(feed: EngineFeed(engine: engine), bus: bus, note: note)
        do {
            try service.start()
        } catch {
            throw CommandError("no D-Bus sensor interface: \(error)")
        }
        self.service = service
    }

    func stop() { service?.stop() }
}
