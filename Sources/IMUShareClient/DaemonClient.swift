import Foundation

/// The client side of the socket, for `imu read`, `imu stream` and `imu events` when a daemon
/// owns the IMU: connect, read the hello, subscribe, then data lines as they come.
public final class DaemonClient {
    public let path: String
    public let hello: [String: JSONValue]
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false
    /// Lines the daemon dropped because this client fell behind (told by `lost` lines).
    public private(set) var lost = 0

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the next line was.
    public enum Line: Equatable {
        /// A data line, exactly as the daemon sent it.
        case data(String)
        /// The daemon closed the connection, with its reason when it gave one.
        case end(String?)
        /// Nothing within the timeout.
        case timeout
    }

    /// Connects to `path` and reads the hello; a clear error when no daemon answers there.
    public init(path: String, timeoutSeconds: Double = 10) throws(Failure) {
        self.path = path
        switch connectUnixSocket(path) {
        case .success(let fd): self.fd = fd
        case .failure(let problem): throw Failure(description: "no imu daemon at \(path) (\(problem)); start `imu run`, or read the IMU directly with --direct")
        }
        var hello: [String: JSONValue] = [:]
        var lineEnded = false
        if case .line(let text) = Self.read(fd: fd, buffer: &buffer, ended: &lineEnded, timeoutSeconds: timeoutSeconds),
           case .object(let members)? = try? JSONText.parse(Array(text.utf8)) {
            hello = Dictionary(members, uniquingKeysWith: { a, _ in a })
        }
        guard hello["type"] == .string("hello") else {
            close(fd)
            if case .string(let error)? = hello["error"] { throw Failure(description: "the imu daemon at \(path) refused: \(error)") }
            throw Failure(description: "\(path) did not greet like an imu daemon")
        }
        self.hello = hello
    }

    deinit { close(fd) }

    /// Sends a request and waits for its reply; the daemon's error as a failure.
    public func request(_ request: IdentifiedRequest, timeoutSeconds: Double = 10) throws(Failure) -> [String: JSONValue] {
        var request = request
        request.id = .string("cli")
        let bytes = Array((request.jsonLine + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "the imu daemon at \(path) closed the connection") }
            offset += n
        }
        while true {
            switch Self.read(fd: fd, buffer: &buffer, ended: &ended, timeoutSeconds: timeoutSeconds) {
            case .line(let text):
                guard case .object(let members)? = try? JSONText.parse(Array(text.utf8)) else { continue }
                let reply = Dictionary(members, uniquingKeysWith: { a, _ in a })
                guard reply["id"] == .string("cli") else { continue }
                if case .string(let error)? = reply["error"] { throw Failure(description: "the imu daemon refused: \(error)") }
                return reply
            case .end: throw Failure(description: "the imu daemon at \(path) closed the connection")
            case .timeout: throw Failure(description: "the imu daemon at \(path) did not answer within \(Int(timeoutSeconds)) s")
            }
        }
    }

    /// The next line of any kind, exactly as the daemon sent it (health, replies, lost counts
    /// too): for a client that watches the daemon itself.
    public func nextLine(timeoutSeconds: Double?) -> Line {
        switch Self.read(fd: fd, buffer: &buffer, ended: &ended, timeoutSeconds: timeoutSeconds) {
        case .line(let text): return .data(text)
        case .end: return .end(nil)
        case .timeout: return .timeout
        }
    }

    /// The next data line (control lines are read and kept track of: lost counts, the bye).
    public func next(timeoutSeconds: Double?) -> Line {
        while true {
            switch Self.read(fd: fd, buffer: &buffer, ended: &ended, timeoutSeconds: timeoutSeconds) {
            case .timeout: return .timeout
            case .end: return .end(nil)
            case .line(let text):
                // Control lines start with {"type":"lost"|"bye"|… or {"error"; data lines are the
                // engine's (events carry "type" too, after "t").
                if text.hasPrefix("{\"type\":\"lost\"") {
                    if case .object(let m)? = try? JSONText.parse(Array(text.utf8)), case .number(let n)? = m.first(where: { $0.0 == "count" })?.1 {
                        lost += Int(n)
                    }
                    continue
                }
                if text.hasPrefix("{\"type\":\"bye\"") {
                    if case .object(let m)? = try? JSONText.parse(Array(text.utf8)), case .string(let reason)? = m.first(where: { $0.0 == "reason" })?.1 {
                        return .end(reason)
                    }
                    return .end(nil)
                }
                if text.hasPrefix("{\"type\":") || text.hasPrefix("{\"error\"") { continue }
                return .data(text)
            }
        }
    }

    enum RawLine { case line(String), end, timeout }

    static func read(fd: Int32, buffer: inout [UInt8], ended: inout Bool, timeoutSeconds: Double?) -> RawLine {
        let deadline = timeoutSeconds.map { Date().addingTimeInterval($0) }
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let text = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(text)
            }
            if ended { return .end }
            var wait: Int32 = -1
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return .timeout }
                wait = Int32(min(left, 1) * 1000) + 1
            } else {
                wait = 1000
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, wait)
            if ready < 0 && errno != EINTR { ended = true; continue }
            if ready <= 0 {
                if deadline == nil { return .timeout }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 {
                ended = true
                continue
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
