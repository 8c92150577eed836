import Foundation
import IMUFrontEnd

/// The local socket as one of the daemon's front ends (Docs/protocol.md). A reload of the
/// calibration through it looks where the daemon looks (the context's feed).
public final class SocketFrontEnd: FrontEnd {
    public let name = "the local socket"
    public let settings: ShareServer.Settings
    private var server: ShareServer?

    public init(settings: ShareServer.Settings) { self.settings = settings }

    public func start(_ context: FrontEndContext) throws {
        let log = context.log
        let server = ShareServer(settings: settings, feed: context.feed, note: { log.note($0) })
        do {
            try server.start()
        } catch {
            // A user without a runtime folder of their own lands on the service's /run/imu.
            let hint = settings.path.hasPrefix("/run/imu/") && getuid() != 0
                ? " (the service's folder; as a user give --socket PATH, e.g. --socket /tmp/imu-$USER.sock, or log in so that XDG_RUNTIME_DIR is set)"
                : ""
            throw FrontEndError("no local socket: \(error)\(hint)")
        }
        self.server = server
    }

    public func stop() { server?.stop() }
}
