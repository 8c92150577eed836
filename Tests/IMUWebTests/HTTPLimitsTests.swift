import Foundation
import Testing
@testable import IMUWeb

/// What a hostile or careless peer cannot do to the dashboard, over real sockets on loopback:
/// hold connections without asking anything, send headers without end, take every slot,
/// break the WebSocket protocol.
@Suite(.serialized) struct HTTPLimitsTests {
    static func serve(_ settings: HTTPSettings) throws -> (Dashboard, String) {
        try DashboardServerTests.serve(settings)
    }

    @Test func idleAndSlowConnectionsAreClosed() throws {
        var settings = HTTPSettings(host: "127.0.0.1", port: 0)
        settings.headerTimeoutSeconds = 1
        settings.idleTimeoutSeconds = 2
        let (dashboard, state) = try Self.serve(settings)
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        // Says nothing at all: 408 once the header deadline passes, then closed.
        let silent = try RawConnection(port: port, receiveTimeout: 8)
        let started = Date()
        #expect(try silent.response().status == 408)
        #expect(silent.closedByServer())
        #expect(Date().timeIntervalSince(started) < 8)
        // Slowloris: a head that never ends.
        let slow = try RawConnection(port: port, receiveTimeout: 8)
        try slow.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-A: 1\r\n")
        #expect(try slow.response().status == 408)
        // Kept alive after a request, then idle: closed after the idle timeout.
        let kept = try RawConnection(port: port, receiveTimeout: 8)
        try kept.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(try kept.response().status == 200)
        let idleFrom = Date()
        #expect(kept.closedByServer(), "an idle keep-alive connection is closed")
        #expect(Date().timeIntervalSince(idleFrom) > 1.5)
    }

    @Test func oversizedHeadersGet431() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let field = try RawConnection(port: port)
        try field.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: \(String(repeating: "a", count: 9 * 1024))\r\n\r\n")
        let r = try field.response()
        #expect(r.status == 431 && r.body.contains("too large"))
        #expect(field.closedByServer())
        let many = try RawConnection(port: port)
        try many.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + (0..<100).map { "X-F\($0): v\r\n" }.joined() + "\r\n")
        #expect(try many.response().status == 431)
        // A second request on a kept connection is held to the same limits.
        let second = try RawConnection(port: port)
        try second.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        #expect(try second.response().status == 200)
        try second.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: \(String(repeating: "a", count: 9 * 1024))\r\n\r\n")
        #expect(try second.response().status == 431)
        // And the server still serves.
        let fine = try RawConnection(port: port)
        try fine.send(get("/api/status", port: port))
        #expect(try fine.response().status == 200)
    }

    /// max-clients 16 allows 40 connections; 40 idle ones from one peer used to take them all.
    @Test func onePeerCannotLockOutAnotherWithTheToken() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "0.0.0.0", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let token = try #require(dashboard.access.token)
        var idle: [RawConnection] = []
        for _ in 0..<40 { idle.append(try RawConnection(port: port, receiveTimeout: 5)) }
        // The ones past this peer's share are refused at once, and say why.
        let refused = try #require(idle.last).response()
        #expect(refused.status == 503 && refused.body.contains("too many connections"), "\(refused)")
        // Another peer (127.0.0.2) with the token is served meanwhile.
        let other = try RawConnection(port: port, from: "127.0.0.2", receiveTimeout: 5)
        try other.send(get("/api/status", port: port, headers: ["Authorization": "Bearer \(token.value)"]))
        #expect(try other.response().status == 200)
        let socket = try RawConnection(port: port, from: "127.0.0.2", receiveTimeout: 5)
        try socket.send(webSocketUpgrade(port: port, headers: ["Authorization": "Bearer \(token.value)"]))
        #expect(try socket.response().status == 101)
    }

    /// Peers without the token, from as many addresses as they like, cannot take the slots of
    /// those with it: when all are open, the oldest connection that never showed it makes room.
    @Test func connectionsWithoutTheTokenMakeRoom() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "0.0.0.0", port: 0, maxClients: 2))  // 12 connections
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let bearer = "Authorization: Bearer \(try #require(dashboard.access.token).value)\r\n"
        let status = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + bearer + "\r\n"
        // A connection that showed the token, kept alive, opened first.
        let kept = try RawConnection(port: port, from: "127.0.0.2", receiveTimeout: 5)
        try kept.send(status)
        #expect(try kept.response().status == 200)
        // 30 idle connections from ten addresses (three each: under the per-address cap).
        var idle: [RawConnection] = []
        for i in 0..<30 { idle.append(try RawConnection(port: port, from: "127.0.0.\(10 + i % 10)", receiveTimeout: 5)) }
        // The oldest were closed to make room, and said why.
        let first = try idle[0].response()
        #expect(first.status == 503 && first.body.contains("make room"), "\(first)")
        // A newcomer with the token is served; the kept connection still is.
        let newcomer = try RawConnection(port: port, from: "127.0.0.3", receiveTimeout: 5)
        try newcomer.send(status)
        #expect(try newcomer.response().status == 200)
        try kept.send(status)
        #expect(try kept.response().status == 200)
        #expect(dashboard.limits.open <= 12 + 1)
    }

    @Test func refusedUpgradesSayWhy() throws {
        let (open, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0, maxClients: 1))
        defer { open.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = open.boundPort
        let first = try RawConnection(port: port)
        try first.send(webSocketUpgrade(port: port))
        #expect(try first.response().status == 101)
        let second = try RawConnection(port: port)
        try second.send(webSocketUpgrade(port: port))
        let busy = try second.response()
        #expect(busy.status == 503 && busy.body.contains("max-clients") && busy.headers["connection"] == "close", "\(busy)")
        let foreign = try RawConnection(port: port)
        try foreign.send(webSocketUpgrade(port: port, headers: ["Origin": "http://evil.example"]))
        #expect(try foreign.response().status == 403)
        let rebound = try RawConnection(port: port)
        try rebound.send(webSocketUpgrade(port: port).replacingOccurrences(of: "Host: 127.0.0.1", with: "Host: evil.example"))
        #expect(try rebound.response().status == 421)

        let (guarded, state2) = try Self.serve(HTTPSettings(host: "0.0.0.0", port: 0))
        defer { guarded.stop(); try? FileManager.default.removeItem(atPath: state2) }
        let noToken = try RawConnection(port: guarded.boundPort)
        try noToken.send(webSocketUpgrade(port: guarded.boundPort))
        let r = try noToken.response()
        #expect(r.status == 401 && r.headers["www-authenticate"] == "Bearer realm=\"imu\"", "\(r)")
    }

    @Test func aFragmentedMessageTooLargeCloses1009() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let c = try RawConnection(port: port)
        try c.send(webSocketUpgrade(port: port))
        #expect(try c.response().status == 101)
        _ = c.text()  // hello
        let piece = Array(repeating: UInt8(ascii: " "), count: 10 * 1024)
        try c.sendFrame(opcode: 1, fin: false, piece)
        try c.sendFrame(opcode: 0, fin: true, piece)
        while c.text() != nil {}
        #expect(c.lastClose == 1009)
        // Fragments that stay within the limit make one message, answered.
        let d = try RawConnection(port: port)
        try d.send(webSocketUpgrade(port: port))
        #expect(try d.response().status == 101)
        _ = d.text()
        try d.sendFrame(opcode: 1, fin: false, Array(#"{"subscribe":"#.utf8))
        try d.sendFrame(opcode: 0, fin: true, Array(#"["gps"]}"#.utf8))
        #expect(d.text()?.contains("unknown stream") == true)
    }

    @Test func anUnmaskedClientFrameCloses1002() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let c = try RawConnection(port: port)
        try c.send(webSocketUpgrade(port: port))
        #expect(try c.response().status == 101)
        _ = c.text()
        try c.sendText(#"{"subscribe":["gps"]}"#)
        #expect(c.text()?.contains("unknown stream") == true)  // masked: served
        try c.sendFrame(masked: false, Array(#"{"subscribe":["motion"]}"#.utf8))
        while c.text() != nil {}
        #expect(c.lastClose == 1002)
        #expect(c.closedByServer())
        // Sent together with the upgrade request, before the 101.
        let early = try RawConnection(port: port)
        try early.send(Array(webSocketUpgrade(port: port).utf8) + [0x81, 0x02, 0x7B, 0x7D])
        #expect(try early.response().status == 101)
        while early.text() != nil {}
        #expect(early.lastClose == 1002)
    }
}
