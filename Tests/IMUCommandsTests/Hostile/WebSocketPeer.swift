import Foundation

/// A WebSocket client written from RFC 6455 for the hostile-client suite: the upgrade, masked
/// frames (or unmasked ones, on purpose), and what the server sends back as text messages or a
/// close code.
final class WebSocketPeer {
    let connection: RawConnection
    /// The response's status line and headers, up to the blank line.
    let head: String

    enum Received: Equatable {
        case text(String)
        case close(code: Int)
        /// Neither by the deadline.
        case nothing
    }

    /// Connects and asks for `/ws`; `head` says what the server answered (101 when upgraded).
    /// `headers`: more header lines ("Origin: …\r\n").
    init(port: Int, path: String = "/ws", host: String? = nil, headers: String = "", within seconds: Double = 10) throws {
        connection = try RawConnection(loopbackPort: port)
        try connection.send(
            "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(headers)Upgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        let raw = connection.through(Array("\r\n\r\n".utf8), until: Date().addingTimeInterval(seconds))
        head = raw.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    var upgraded: Bool { head.hasPrefix("HTTP/1.1 101") }

    /// One frame (FIN set); masked unless `masked` is false. `opcode` 1: text.
    static func frame(_ payload: [UInt8], opcode: UInt8 = 1, fin: Bool = true, masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: bytes.append(mask | UInt8(payload.count))
        case ..<65536: bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(mask | 127)
            bytes += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (8 * UInt64($0))) & 0xFF) }
        }
        guard masked else { return bytes + payload }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        return bytes + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    func send(text: String) throws { try connection.send(Self.frame(Array(text.utf8))) }
    func send(bytes: [UInt8], masked: Bool = true) throws { try connection.send(Self.frame(bytes, masked: masked)) }

    /// The next text message or close (pings and pongs skipped).
    func receive(until deadline: Date) -> Received {
        while true {
            guard let start = connection.bytes(2, until: deadline) else { return .nothing }
            var length = Int(start[1] & 0x7F)
            if length == 126 {
                guard let more = connection.bytes(2, until: deadline) else { return .nothing }
                length = Int(more[0]) << 8 | Int(more[1])
            } else if length == 127 {
                guard let more = connection.bytes(8, until: deadline) else { return .nothing }
                length = more.reduce(0) { $0 << 8 | Int($1) }
            }
            guard let payload = connection.bytes(length, until: deadline) else { return .nothing }
            switch start[0] & 0x0F {
            case 1: return .text(String(decoding: payload, as: UTF8.self))
            case 8: return .close(code: payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005)
            default: continue
            }
        }
    }

    /// Messages until one satisfies `wanted` (it is returned), a close, or the deadline.
    func receive(until deadline: Date, where wanted: (Received) -> Bool) -> Received {
        while true {
            let next = receive(until: deadline)
            if next == .nothing || wanted(next) { return next }
            if case .close = next { return next }
        }
    }
}
