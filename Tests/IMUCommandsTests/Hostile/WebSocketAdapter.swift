import Foundation

/// The dashboard's WebSocket (`GET /ws` on loopback, where reading needs no token) and, for the
/// state change, its POST endpoint: the same requests as text messages.
struct WebSocketAdapter: HostileAdapter {
    let daemon: HostileDaemon

    /// An upgraded connection past its hello.
    func connect() throws -> WebSocketPeer {
        let peer = try WebSocketPeer(port: daemon.httpPort)
        guard peer.upgraded else { throw RawConnection.Failure(description: "not upgraded: \(peer.head)") }
        guard case .text(let hello) = peer.receive(until: Date().addingTimeInterval(10)), hello.contains(#""type":"hello""#) else {
            throw RawConnection.Failure(description: "no hello on the WebSocket")
        }
        return peer
    }

    /// Messages until one holds `text` or a close; "close CODE", the message, or "nothing".
    func answer(_ peer: WebSocketPeer, containing text: String, within seconds: Double = 10) -> String {
        switch peer.receive(until: Date().addingTimeInterval(seconds), where: { if case .text(let m) = $0 { m.contains(text) } else { false } }) {
        case .text(let message): message
        case .close(let code): "close \(code)"
        case .nothing: peer.connection.ended ? "closed without a close frame" : "nothing"
        }
    }

    func perform(_ hostile: HostileCase) async throws -> Observed {
        switch hostile {
        case .garbageBytes:
            // Bytes that are no frame at all (the first reads as an unmasked frame): RFC 6455 §5.1.
            let peer = try connect()
            try peer.connection.send(try hostile.bytes())
            return Observed(seen: answer(peer, containing: #""error""#))
        case .controlWithoutCredentials:
            let connection = try RawConnection(loopbackPort: daemon.httpPort)
            try connection.send(
                "POST /api/calibration/gyroscope HTTP/1.1\r\nHost: 127.0.0.1:\(daemon.httpPort)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
            let head = connection.through(Array("\r\n".utf8), until: Date().addingTimeInterval(10))
            return Observed(seen: head.map { String(decoding: $0, as: UTF8.self) } ?? "nothing")
        case .foreignSite:
            let page = try WebSocketPeer(port: daemon.httpPort, headers: "Origin: http://attacker.example\r\n")
            let rebound = try WebSocketPeer(port: daemon.httpPort, host: "attacker.example:\(daemon.httpPort)")
            // Both must be refused; the row's status is the cross-site one's.
            let statuses = [page.head, rebound.head].map { $0.split(separator: "\r\n").first.map(String.init) ?? "nothing" }
            return Observed(seen: statuses[1].hasPrefix("HTTP/1.1 421 ") ? statuses[0] : "foreign Host answered: \(statuses[1])")
        case .flood:
            let peer = try connect()
            let count = HostileCase.floodCount
            try peer.connection.send((0..<count).flatMap { _ in WebSocketPeer.frame(Array(HostileCase.floodRequest.utf8)) })
            let deadline = Date().addingTimeInterval(30)
            var answers = 0
            func isError(_ received: WebSocketPeer.Received) -> Bool { if case .text(let m) = received { m.contains(#""error""#) } else { false } }
            while answers < count, isError(peer.receive(until: deadline, where: isError)) { answers += 1 }
            return Observed(seen: answers == count ? HostileCase.everyOneAnswered : "\(answers) answers of \(count)")
        case .churn:
            for _ in 0..<100 { _ = try WebSocketPeer(port: daemon.httpPort) }
            return Observed(seen: "100 upgrades opened and closed")
        case .neverReads:
            let peer = try WebSocketPeer(port: daemon.httpPort)
            peer.connection.shrinkReceiveBuffer(to: 4096)
            try peer.send(text: #"{"subscribe":["samples","motion","health"]}"#)
            return Observed(seen: "subscribed, never reading", release: { peer.connection.hangUp() })
        case .halfClose:
            let peer = try connect()
            try peer.send(text: #"{"op":"subscribe","stream":"motion"}"#)
            peer.connection.shutdownWrite()
            return Observed(seen: answer(peer, containing: #""quat_w""#))
        default:
            let peer = try connect()
            try peer.send(bytes: try hostile.bytes())
            return Observed(seen: answer(peer, containing: #""error""#))
        }
    }

    func wellBehavedClientIsServed(within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard let peer = try? connect() else {
                try? await Task.sleep(for: .milliseconds(20))
                continue
            }
            try peer.send(text: #"{"subscribe":["motion"],"rate_hz":10}"#)
            if answer(peer, containing: #""quat_w""#, within: deadline.timeIntervalSinceNow).contains(#""quat_w""#) { return true }
        }
        return false
    }
}
