import Foundation

/// Who is at the other end of a Unix socket, as the kernel says: SO_PEERCRED gives the pid, uid
/// and gid the peer had when it connected (socket(7)); SO_PEERGROUPS its supplementary groups
/// (Linux 4.13 and later; without it only the primary group counts).
public struct PeerCredentials: Equatable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The peer of a connected Unix socket; nil when the kernel does not say.
    public static func of(socket fd: Int32) -> PeerCredentials? {
        // `struct ucred` (pid_t, uid_t, gid_t); Glibc hides it behind _GNU_SOURCE.
        var raw: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length) == 0, length == 12 else { return nil }
        var peer = PeerCredentials(pid: raw.0, uid: raw.1, gid: raw.2)
        var groups = [UInt32](repeating: 0, count: 64)
        var groupBytes = socklen_t(groups.count * 4)
        if getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, &groups, &groupBytes) == 0 {
            peer.groups = Array(groups.prefix(Int(groupBytes) / 4))
        } else if errno == ERANGE, groupBytes > 0, groupBytes <= 65536 * 4 {
            // More than 64 groups: the kernel said how many bytes it needs.
            groups = [UInt32](repeating: 0, count: Int(groupBytes) / 4)
            if getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, &groups, &groupBytes) == 0 {
                peer.groups = Array(groups.prefix(Int(groupBytes) / 4))
            }
        }
        return peer
    }

    public var description: String { "uid \(uid), pid \(pid)" }
}

/// Who may ask the daemon to change its state (reload the calibration) through the socket: root,
/// and members of the socket's group (the service's `imu` group), primary or supplementary.
/// Anyone else the socket's mode lets in reads motion only.
public struct ControlAccess: Equatable, Sendable {
    public var group: UInt32

    public init(group: UInt32) { self.group = group }

    public func allows(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        return peer.uid == 0 || peer.gid == group || peer.groups.contains(group)
    }
}
