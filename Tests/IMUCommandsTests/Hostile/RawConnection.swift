import Foundation

/// A client connection as a hostile peer holds it: bytes in and out exactly as given, a
/// half-close, reads that wait on `poll` with a deadline (never a bare sleep). Unix or loopback TCP.
final class RawConnection {
    private(set) var fd: Int32
    private var pending: [UInt8] = []
    /// The peer closed (read returned 0 or an error).
    private(set) var ended = false

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(unixPath path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect \(path): \(reason)")
        }
    }

    init(loopbackPort port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "connect 127.0.0.1:\(port): \(reason)")
        }
    }

    deinit { hangUp() }

    /// Closes the connection (both directions).
    func hangUp() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Writes everything (a peer that stops reading may block us: the writes wait at most `seconds`).
    func send(_ bytes: [UInt8], within seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var offset = 0
        while offset < bytes.count {
            guard waitFor(POLLOUT, until: deadline) else { throw Failure(description: "send blocked for \(seconds) s") }
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Tells the kernel to keep at most `bytes` unread (a never-reading client's window).
    func shrinkReceiveBuffer(to bytes: Int32) {
        var size = bytes
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    private func waitFor(_ events: Int32, until deadline: Date) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return poll(&entry, 1, 0) > 0 }
            let ready = poll(&entry, 1, Int32(min(left, 1) * 1000) + 1)
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    /// Reads what is there (waiting until `deadline` for something); false when nothing came.
    @discardableResult
    func fill(until deadline: Date) -> Bool {
        guard !ended, waitFor(POLLIN, until: deadline) else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            ended = true
            return false
        }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    /// The next `count` bytes, or nil at the deadline or the end.
    func bytes(_ count: Int, until deadline: Date) -> [UInt8]? {
        while pending.count < count { if !fill(until: deadline) { return nil } }
        let taken = Array(pending[..<count])
        pending.removeFirst(count)
        return taken
    }

    /// Up to and including `delimiter`, or nil at the deadline or the end.
    func through(_ delimiter: [UInt8], until deadline: Date) -> [UInt8]? {
        while true {
            if let range = firstRange(of: delimiter) {
                let taken = Array(pending[..<range])
                pending.removeFirst(range)
                return taken
            }
            if !fill(until: deadline) { return nil }
        }
    }

    private func firstRange(of delimiter: [UInt8]) -> Int? {
        guard pending.count >= delimiter.count else { return nil }
        for start in 0...(pending.count - delimiter.count) where pending[start..<(start + delimiter.count)].elementsEqual(delimiter) {
            return start + delimiter.count
        }
        return nil
    }

    /// The next line (without its newline), or nil at the deadline or the end.
    func line(until deadline: Date) -> String? {
        through([0x0A], until: deadline).map { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    /// True when the peer closes by `deadline` (what it sent meanwhile is dropped).
    func closes(until deadline: Date) -> Bool {
        while !ended {
            pending.removeAll()
            if !fill(until: deadline) && !ended { return false }
        }
        return true
    }
}
