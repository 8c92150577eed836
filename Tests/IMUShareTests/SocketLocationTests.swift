import Foundation
import IMUShare
import Testing

/// Which socket a client picks when none is named: a live daemon's, never the leftover of one
/// that was killed (a client would fail on it instead of reading the hardware).
@Suite struct SocketLocationTests {
    /// A socket file bound at `path`; listening when `listening`, else closed (a dead daemon's leftover).
    func socketFile(at path: String, listening: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        if listening {
            try #require(listen(fd, 4) == 0)
        } else {
            close(fd)
        }
        return fd
    }

    @Test func aDeadDaemonsSocketIsPassedOverForTheNextOrNone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imu-loc-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dead = folder + "/dead.sock", live = folder + "/live.sock", missing = folder + "/none.sock"
        _ = try socketFile(at: dead, listening: false)
        let server = try socketFile(at: live, listening: true)
        defer { close(server) }

        #expect(SocketLocation.existingSocket([dead]) == nil)
        #expect(SocketLocation.existingSocket([missing, dead, live]) == live)
        #expect(SocketLocation.existingSocket([live, dead]) == live)
        // The leftover is still there: only passed over, never removed by a client.
        #expect(FileManager.default.fileExists(atPath: dead))
    }
}
