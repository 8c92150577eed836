import Foundation

/// Where the daemon's socket lives (Docs/protocol.md, "Where the socket is").
///
/// - the service: `$RUNTIME_DIRECTORY/imu.sock`, the unit's `RuntimeDirectory=imu`, so `/run/imu/imu.sock`;
/// - a user's daemon: `$XDG_RUNTIME_DIR/imu/imu.sock`;
/// - neither set: `/run/imu/imu.sock`.
/// Clients try the user's socket first, then the service's.
public enum SocketLocation {
    public static let servicePath = "/run/imu/imu.sock"
    /// sockaddr_un's sun_path holds 108 bytes with the terminating NUL.
    public static let maximumPathBytes = 107

    /// Where `imu run` listens when no `--socket` is given.
    public static func serverPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            // systemd may list several directories, separated by colons; ours is the first.
            let first = runtime.split(separator: ":").first.map(String.init) ?? runtime
            return first + "/imu.sock"
        }
        if let user = environment["XDG_RUNTIME_DIR"], !user.isEmpty { return user + "/imu/imu.sock" }
        return servicePath
    }

    /// Where a client looks, in order, when no `--socket` is given.
    public static func clientPaths(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var paths: [String] = []
        if let user = environment["XDG_RUNTIME_DIR"], !user.isEmpty { paths.append(user + "/imu/imu.sock") }
        if !paths.contains(servicePath) { paths.append(servicePath) }
        return paths
    }

    /// The first of `paths` that is a socket a daemon listens on. A socket whose daemon is gone
    /// (killed, so it could not remove it: connect(2) says ECONNREFUSED) is passed over, so a
    /// client reads the hardware instead of failing on the leftover; any other refusal (a
    /// daemon this user may not reach) keeps it, so the user hears why.
    public static func existingSocket(_ paths: [String]) -> String? {
        paths.first { path in
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else { return false }
            switch connectUnixSocket(path) {
            case .success(let fd):
                close(fd)
                return true
            case .failure(let error):
                return error.errno != ECONNREFUSED
            }
        }
    }
}

/// A Unix socket address for `path`, or nil when the path is too long for one.
package func unixAddress(_ path: String) -> sockaddr_un? {
    let bytes = Array(path.utf8)
    guard !bytes.isEmpty, bytes.count <= SocketLocation.maximumPathBytes, !bytes.contains(0) else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, byte) in bytes.enumerated() { raw[i] = byte }
        raw[bytes.count] = 0
    }
    return address
}

/// connect(2) to a Unix socket path; the descriptor (close-on-exec, blocking) or the errno.
public func connectUnixSocket(_ path: String) -> Result<Int32, SocketError> {
    guard var address = unixAddress(path) else {
        return .failure(SocketError("the socket path \(path) is longer than \(SocketLocation.maximumPathBytes) bytes"))
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return .failure(SocketError("socket: \(String(cString: strerror(errno)))", errno: errno)) }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if result != 0 {
        let code = errno
        close(fd)
        return .failure(SocketError("cannot connect to \(path): \(String(cString: strerror(code)))", errno: code))
    }
    return .success(fd)
}

public struct SocketError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public let errno: Int32

    public init(_ message: String, errno: Int32 = 0) {
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}

/// A self-pipe to wake a poll loop: both ends non-blocking and close-on-exec.
public func makeWakePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    return true
}
