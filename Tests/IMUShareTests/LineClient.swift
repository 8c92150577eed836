import Foundation
@testable import IMUShare

/// A test's client of the socket: raw bytes out, lines in, every wait bounded.
final class LineClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var ended = false

    init(path: String) throws {
        fd = try connectUnixSocket(path).get()
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func sendBytes(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line (without its newline), nil at the end of the stream or after `timeout` seconds.
    func line(timeout: Double = 10) -> String? {
        let end = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended { return nil }
            let left = end.timeIntervalSinceNow
            if left <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(min(left, 1) * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { ended = true; continue }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// The next line, parsed as a JSON object.
    func object(timeout: Double = 10) -> [String: JSONValue]? {
        guard let line = line(timeout: timeout), case .object(let members)? = try? JSONText.parse(Array(line.utf8)) else { return nil }
        return Dictionary(members, uniquingKeysWith: { a, _ in a })
    }
}

func temporarySocketPath(_ name: String = "imu.sock") -> String {
    let directory = NSTemporaryDirectory() + "imu-share-\(getpid())-\(UUID().uuidString.prefix(8))"
    mkdir(directory, 0o700)
    return directory + "/" + name
}
