import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client written from the bytes up (POSIX sockets), so tests can send exactly what a hostile
/// or careless client would: missing tokens, foreign origins, oversize WebSocket frames.
final class RawConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// `from`: the local address to connect from (127.0.0.2 is another peer on loopback).
    init(port: Int, host: String = "127.0.0.1", from source: String? = nil, receiveTimeout: Double = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError("socket: \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw RawError("bind to \(source): \(String(cString: strerror(errno)))")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw RawError("connect to \(host):\(port): \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - Double(Int(receiveTimeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawError("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// More bytes from the socket; false at the end of the stream (or a timeout).
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer += chunk[..<n]
        return true
    }

    /// An HTTP response: status, headers (lower-case names), body (by Content-Length).
    func response() throws -> (status: Int, headers: [String: String], body: String) {
        let end: Int = try {
            while true {
                if let range = findHeaderEnd() { return range }
                guard fill() else { throw RawError("connection ended before a response: \(String(decoding: buffer, as: UTF8.self))") }
            }
        }()
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 4)
        var lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { guard fill() else { break } }
        let body = String(decoding: buffer.prefix(length), as: UTF8.self)
        buffer.removeFirst(min(length, buffer.count))
        return (status, headers, body)
    }

    private func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// One WebSocket frame from the server: opcode and payload; nil at the end of the stream.
    func frame() -> (opcode: UInt8, payload: [UInt8])? {
        func need(_ n: Int) -> Bool {
            while buffer.count < n { guard fill() else { return false } }
            return true
        }
        guard need(2) else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F), offset = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            offset = 10
        }
        guard need(offset + length) else { return nil }
        let payload = Array(buffer[offset..<(offset + length)])
        buffer.removeFirst(offset + length)
        return (opcode, payload)
    }

    /// The next text message (pings and pongs skipped); nil when the connection closed.
    func text() -> String? {
        while let (opcode, payload) = frame() {
            if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
            if opcode == 8 { lastClose = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005; return nil }
        }
        return nil
    }

    /// The close code the server sent, once `text()` met the close frame.
    var lastClose: Int?

    /// A client frame, masked as clients must (RFC 6455 §5.3) unless `masked` is false;
    /// `fin` false for all but the last frame of a fragmented message.
    func sendFrame(opcode: UInt8 = 1, fin: Bool = true, masked: Bool = true, _ payload: [UInt8]) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        } else {
            frame += payload
        }
        try send(frame)
    }

    /// True when the server closes the connection (end of stream) before the receive timeout,
    /// whatever it sent first; false when the timeout passes with the connection open.
    func closedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
            buffer += chunk[..<n]
        }
    }

    func sendText(_ text: String) throws { try sendFrame(Array(text.utf8)) }
}

struct RawError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An HTTP request's text.
func request(_ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: String = "") -> String {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "\r\n" + body
}

func get(_ path: String, port: Int, headers: [String: String] = [:]) -> String {
    request("GET", path, port: port, headers: headers)
}

/// The WebSocket handshake's request.
func webSocketUpgrade(port: Int, headers: [String: String] = [:]) -> String {
    var all = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"]
    all.merge(headers) { $1 }
    var text = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for (name, value) in all.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    return text + "\r\n"
}
