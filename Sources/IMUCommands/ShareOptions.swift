import ArgumentParser
import IMUEngine
import IMUSensorProxy
import IMUShare
import Logging

/// `imu run`'s front ends for local programs: the Unix socket (Docs/protocol.md) and
/// iio-sensor-proxy's D-Bus interface for the desktop.
struct ShareOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Serve clients on this Unix socket.",
        discussion: "Default: $RUNTIME_DIRECTORY/imu.sock for the service, $XDG_RUNTIME_DIR/imu/imu.sock for a user, else /run/imu/imu.sock."))
    var socket: String?

    @Flag(help: "Serve no socket.")
    var noSocket = false

    @Option(help: "Offer iio-sensor-proxy's interface (net.hadess.SensorProxy: screen orientation, compass) on this bus: system, session or none.")
    var dbus: DBusChoice = .none

    enum DBusChoice: String, ExpressibleByArgument, CaseIterable {
        case system, session, none
    }

    func validate() throws {
        if noSocket, socket != nil { throw ValidationError("--socket and --no-socket exclude each other") }
    }

    /// Starts what was asked for. A socket that cannot be served stops the daemon (another daemon
    /// on it would read the same chip); D-Bus trouble is a warning and the daemon runs without it.
    func start(engine: MotionEngine, log: Logger) throws -> SharedFrontEnds {
        let feed = EngineFeed(engine: engine)
        let note: @Sendable (ShareServer.Note) -> Void = { note in
            switch note {
            case .info(let text): log.info("\(text)")
            case .warning(let text): log.warning("\(text)")
            }
        }
        var frontEnds = SharedFrontEnds()
        if !noSocket {
            var settings = ShareServer.Settings(path: socket ?? SocketLocation.serverPath())
            settings.serverName = "imu \(IMUVersion.current)"
            let server = ShareServer(settings: settings, feed: feed, note: note)
            do {
                try server.start()
            } catch {
                throw CommandError("\(error)")
            }
            frontEnds.server = server
        }
        if let bus = SensorProxyService.Bus(rawValue: dbus.rawValue) {
            let service = SensorProxyService(feed: feed, bus: bus, note: note)
            do {
                try service.start()
                frontEnds.sensorProxy = service
            } catch {
                log.warning("no D-Bus sensor interface: \(error)")
            }
        }
        return frontEnds
    }
}

struct SharedFrontEnds {
    var server: ShareServer?
    var sensorProxy: SensorProxyService?

    func stop() {
        sensorProxy?.stop()
        server?.stop()
    }
}
