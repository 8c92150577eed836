import IMUShareClient

/// Whether a motion manager reads through the daemon (`imu run`) that owns the IMU. Only one
/// process can drain a chip's FIFO: two readers of one chip corrupt each other's reads, so while
/// the daemon runs a program reads what it serves. The output is the same either way.
public enum DaemonChoice: Sendable, Equatable {
    /// Through the daemon when its socket exists (the user's, then the service's; see
    /// `SocketLocation.clientPaths`), else the hardware.
    case whenRunning
    /// Through the daemon serving this socket; an error when none answers there.
    case socket(String)
    /// The hardware itself, daemon or not (`--direct`).
    case direct

    /// The socket to read through, or nil for the hardware; `searching` are the sockets
    /// `whenRunning` looks for.
    func socket(searching: [String]) -> String? {
        switch self {
        case .whenRunning: SocketLocation.existingSocket(searching)
        case .socket(let path): path
        case .direct: nil
        }
    }
}
