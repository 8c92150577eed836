import Foundation
import IMUCalibration
import IMUFrontEnd
import Logging
import Testing
@testable import IMUWeb

/// The server over real sockets: the page, the API, the WebSocket protocol, the token, read-only,
/// and the limits. Each test serves on a port the kernel picks.
@Suite(.serialized) struct DashboardServerTests {
    static func serve(_ settings: HTTPSettings, feed: ScriptedFeed = ScriptedFeed(), log: Logger = Logger(label: "test")) throws -> (Dashboard, String) {
        let state = NSTemporaryDirectory() + "imu-web-\(getpid())-\(UUID().uuidString)"
        let calibration = CalibrationAccess(
            chip: ChipIdentity(chip: "LSM9DS1", board: "sense-hat", bus: "twin", address: 0x6A), hasMagnetometer: true,
            directory: state + "/calibration", current: { nil }, apply: { _ in })
        let dashboard = try Dashboard(
            settings: settings, feed: feed, calibration: calibration,
            calibrationMembers: { "\"gyroscope\":\"uncalibrated\"" }, stateDirectory: state, log: log)
        try dashboard.start()
        return (dashboard, state)
    }

    @Test func thePageAndTheAPIAreServedOnLoopbackWithoutAToken() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        #expect(port > 0)
        for (path, type, needle) in [("/", "text/html", "<canvas id=\"graph-attitude\""), ("/dashboard.js", "text/javascript", "imuDashboard"),
                                     ("/dashboard.css", "text/css", "#board")] {
            let c = try RawConnection(port: port)
            try c.send(get(path, port: port))
            let r = try c.response()
            #expect(r.status == 200, "\(path)")
            #expect(r.headers["content-type"]?.hasPrefix(type) == true, "\(path)")
            #expect(r.body.contains(needle), "\(path)")
            #expect(r.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        }
        let c = try RawConnection(port: port)
        try c.send(get("/api/status", port: port))
        let status = try c.response()
        #expect(status.status == 200)
        #expect(status.body.contains("\"chip\":\"LSM9DS1\"") && status.body.contains("\"allow_control\":false"))
        let m = try RawConnection(port: port)
        try m.send(get("/api/motion", port: port))
        let motion = try m.response()
        #expect(motion.status == 200 && motion.body.hasPrefix("{\"t\":") && motion.body.contains("\"quat_w\""))
        // DNS rebinding: a foreign Host is refused even on loopback.
        let r = try RawConnection(port: port)
        try r.send("GET /api/status HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n")
        #expect(try r.response().status == 421)
        // No token is made for a loopback server.
        #expect(!FileManager.default.fileExists(atPath: state + "/http-token"))
    }

    @Test func theWebSocketSaysHelloThenSendsWhatWasSubscribed() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let c = try RawConnection(port: dashboard.boundPort)
        try c.send(webSocketUpgrade(port: dashboard.boundPort))
        let handshake = try c.response()
        #expect(handshake.status == 101)
        // RFC 6455 §1.3's example key and answer.
        #expect(handshake.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let hello = try #require(c.text())
        #expect(hello.hasPrefix("{\"type\":\"hello\",\"protocol\":1,") && hello.contains("\"streams\":[\"samples\",\"motion\""))
        try c.sendText(#"{"subscribe":["gps"]}"#)
        #expect(c.text()?.hasPrefix("{\"error\":\"unknown stream \\\"gps\\\"") == true)
        try c.sendText(#"{"subscribe":["motion"],"rate_hz":25}"#)
        let first = try #require(c.text())
        let second = try #require(c.text())
        #expect(first.contains("\"quat_w\"") && second.contains("\"quat_w\""))
        // rate_hz 25 of a 50 Hz engine: every second motion (t 0.04 s apart).
        let t = [first, second].map { Double($0.split(separator: ",")[0].dropFirst(5))! }
        #expect(abs(t[1] - t[0] - 0.04) < 1e-9)
    }

    /// A pulse's end reaches the page: a `gpio` line with every driven line's level, the pulsed
    /// one back at rest (before, the page showed a pulsed relay "high" for good).
    @Test func aPulsesEndSendsTheLevels() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        dashboard.setRules([RuleSummary(name: "buzz", on: "a slap", actions: "pulse pin 13 50 ms")],
                           lines: [GPIOLevel(name: "GPIO17", offset: 17, high: true), GPIOLevel(name: "GPIO27", offset: 27, high: false)])
        let c = try RawConnection(port: dashboard.boundPort)
        try c.send(webSocketUpgrade(port: dashboard.boundPort))
        #expect(try c.response().status == 101)
        #expect(c.text()?.contains(#""gpio":[{"name":"GPIO17","offset":17,"high":true},{"name":"GPIO27","offset":27,"high":false}]"#) == true)
        try c.sendText(#"{"subscribe":["rules"]}"#)
        // Requests are handled in order: once the second is answered, the first has been taken.
        try c.sendText(#"{"subscribe":["gps"]}"#)
        #expect(c.text()?.hasPrefix(#"{"error":"#) == true)
        dashboard.setLevels([GPIOLevel(name: "GPIO17", offset: 17, high: false)])
        #expect(c.text() == #"{"type":"gpio","lines":[{"name":"GPIO17","offset":17,"high":false},{"name":"GPIO27","offset":27,"high":false}]}"#)
    }

    @Test func offLoopbackEverythingNeedsTheToken() throws {
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "0.0.0.0", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let token = try #require(dashboard.access.token)
        #expect(token.created && FileManager.default.fileExists(atPath: state + "/http-token"))
        for path in ["/", "/dashboard.js", "/api/status", "/api/motion", "/api/calibration"] {
            let c = try RawConnection(port: port)
            try c.send(get(path, port: port))
            let r = try c.response()
            #expect(r.status == 401, "\(path)")
            #expect(r.headers["www-authenticate"] == "Bearer realm=\"imu\"")
        }
        // The WebSocket refuses too: no upgrade, 401 as Docs/protocol.md says, and closed; a
        // plain GET of /ws says the same.
        let w = try RawConnection(port: port)
        try w.send(webSocketUpgrade(port: port))
        let refusedUpgrade = try w.response()
        #expect(refusedUpgrade.status == 401 && refusedUpgrade.headers["connection"] == "close", "\(refusedUpgrade)")
        let why = try RawConnection(port: port)
        try why.send(get("/ws", port: port))
        #expect(try why.response().status == 401)
        // With the token as a bearer header: served, and the WebSocket upgrades.
        let b = try RawConnection(port: port)
        try b.send(get("/api/status", port: port, headers: ["Authorization": "Bearer \(token.value)"]))
        #expect(try b.response().status == 200)
        let wb = try RawConnection(port: port)
        try wb.send(webSocketUpgrade(port: port, headers: ["Authorization": "Bearer \(token.value)"]))
        #expect(try wb.response().status == 101)
        // The one-time link sets the cookie once; the cookie then opens the page.
        let link = try #require(dashboard.signInLink())
        let path = String(link[link.range(of: "/login")!.lowerBound...])
        let l = try RawConnection(port: port)
        try l.send(get(path, port: port))
        let signedIn = try l.response()
        #expect(signedIn.status == 303 && signedIn.headers["location"] == "/")
        let cookie = try #require(signedIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        #expect(cookie == "imu_token=\(token.value)")
        let again = try RawConnection(port: port)
        try again.send(get(path, port: port))
        #expect(try again.response().status == 401)
        let page = try RawConnection(port: port)
        try page.send(get("/", port: port, headers: ["Cookie": cookie]))
        #expect(try page.response().status == 200)
        // A WebSocket from another site is refused even with the cookie.
        let foreign = try RawConnection(port: port)
        try foreign.send(webSocketUpgrade(port: port, headers: ["Cookie": cookie, "Origin": "http://evil.example"]))
        #expect(try foreign.response().status == 403)
        let foreignWhy = try RawConnection(port: port)
        try foreignWhy.send(get("/ws", port: port, headers: ["Cookie": cookie, "Origin": "http://evil.example"]))
        #expect(try foreignWhy.response().status == 403)
    }

    @Test func readOnlyUnlessControlIsAllowed() throws {
        let (readOnly, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0))
        defer { readOnly.stop(); try? FileManager.default.removeItem(atPath: state) }
        let json = ["Content-Type": "application/json"]
        let c = try RawConnection(port: readOnly.boundPort)
        try c.send(request("POST", "/api/calibration/gyroscope", port: readOnly.boundPort, headers: json, body: "{}"))
        let r = try c.response()
        #expect(r.status == 403 && r.body.contains("allow-control"))

        let log = CapturedLog()
        let (control, state2) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0, allowControl: true), log: log.logger)
        defer { control.stop(); try? FileManager.default.removeItem(atPath: state2) }
        let port = control.boundPort
        let token = try #require(control.access.token, "control needs the token, on loopback too")
        let signedIn = json.merging(["Authorization": "Bearer \(token.value)"]) { $1 }
        // A form post from another site (no JSON type, or a foreign Origin) is refused.
        let form = try RawConnection(port: port)
        try form.send(request("POST", "/api/calibration/gyroscope", port: port, headers: ["Content-Type": "application/x-www-form-urlencoded", "Authorization": "Bearer \(token.value)"], body: "a=b"))
        #expect(try form.response().status == 415)
        let foreign = try RawConnection(port: port)
        try foreign.send(request("POST", "/api/calibration/gyroscope", port: port, headers: signedIn.merging(["Origin": "http://evil.example"]) { $1 }, body: "{}"))
        #expect(try foreign.response().status == 403)
        let unknown = try RawConnection(port: port)
        try unknown.send(request("POST", "/api/calibration/compass", port: port, headers: signedIn, body: "{}"))
        #expect(try unknown.response().status == 404)
        let big = try RawConnection(port: port)
        try big.send(request("POST", "/api/calibration/gyroscope", port: port, headers: signedIn, body: String(repeating: " ", count: 20_000) + "{}"))
        #expect(try big.response().status == 413)
        #expect(log.lines.filter { $0.contains("calibration") }.isEmpty)
    }

    /// Every local user reaches loopback: reading is open there, changing state is not.
    @Test func controlFromLoopbackNeedsTheTokenAndIsLogged() throws {
        let log = CapturedLog()
        let (control, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0, allowControl: true), log: log.logger)
        defer { control.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = control.boundPort
        let token = try #require(control.access.token)
        #expect(!log.lines.contains { $0.contains(token.value) })
        let json = ["Content-Type": "application/json"]
        for headers in [json, json.merging(["Authorization": "Bearer " + String(repeating: "0", count: 64)]) { $1 },
                        json.merging(["Cookie": "imu_token=nope"]) { $1 }] {
            for kind in ["gyroscope", "cancel"] {
                let c = try RawConnection(port: port)
                try c.send(request("POST", "/api/calibration/\(kind)", port: port, headers: headers, body: "{}"))
                let r = try c.response()
                #expect(r.status == 401 && r.headers["www-authenticate"] == "Bearer realm=\"imu\"", "\(kind) with \(headers)")
            }
        }
        #expect(log.lines.filter { $0.contains("calibration") }.isEmpty)
        // Reading stays open on loopback.
        let status = try RawConnection(port: port)
        try status.send(get("/api/status", port: port))
        #expect(try status.response().status == 200)
        // With the token: started, and the log says who asked.
        let c = try RawConnection(port: port)
        try c.send(request("POST", "/api/calibration/gyroscope", port: port, headers: json.merging(["Authorization": "Bearer \(token.value)"]) { $1 }, body: "{}"))
        #expect(try c.response().status == 202)
        let started = log.lines.filter { $0.contains("gyroscope calibration started from the dashboard") }
        #expect(started.count == 1 && started[0].contains("by=127.0.0.1:"), "\(log.lines)")
        let cancel = try RawConnection(port: port)
        try cancel.send(request("POST", "/api/calibration/cancel", port: port, headers: json.merging(["Cookie": "imu_token=\(token.value)"]) { $1 }, body: "{}"))
        #expect(try cancel.response().status == 200)
        #expect(log.lines.contains { $0.contains("calibration cancelled from the dashboard") && $0.contains("by=127.0.0.1:") })
    }

    @Test func limitsHold() throws {
        let feed = ScriptedFeed()
        let (dashboard, state) = try Self.serve(HTTPSettings(host: "127.0.0.1", port: 0, maxClients: 2), feed: feed)
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        var open: [RawConnection] = []
        for _ in 0..<2 {
            let c = try RawConnection(port: port)
            try c.send(webSocketUpgrade(port: port))
            #expect(try c.response().status == 101)
            _ = c.text()
            open.append(c)
        }
        let third = try RawConnection(port: port)
        try third.send(webSocketUpgrade(port: port))
        #expect(try third.response().status == 503, "the third upgrade")
        let thirdWhy = try RawConnection(port: port)
        try thirdWhy.send(get("/ws", port: port))
        let refused = try #require(try? thirdWhy.response(), "GET /ws with an Upgrade header")
        #expect(refused.status == 503 && refused.body.contains("max-clients"), "\(refused)")
        // An oversize message closes that connection (1009, too big) and nothing else.
        try open[0].sendText(#"{"subscribe":["motion"]}"#)
        #expect(open[0].text()?.contains("quat_w") == true)
        try open[0].sendFrame(Array(repeating: UInt8(ascii: " "), count: 100_000))
        while open[0].text() != nil {}
        #expect(open[0].lastClose == 1009)
        try open[1].sendText(#"{"subscribe":["motion"]}"#)
        #expect(open[1].text()?.contains("quat_w") == true)
        // A header larger than the limit gets 431 (HTTPLimitsTests has the cases), and the
        // others are served meanwhile.
        let huge = try RawConnection(port: port)
        try? huge.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n")
        #expect(try huge.response().status == 431)
        // The closed client's slot and subscription are given back.
        open.removeFirst()
        let deadline = Date(timeIntervalSinceNow: 10)
        while dashboard.clients.count > 1 || feed.subscriptions > 1, Date() < deadline { usleep(10_000) }
        #expect(dashboard.clients.count == 1 && feed.subscriptions == 1)
        let fourth = try RawConnection(port: port)
        try fourth.send(webSocketUpgrade(port: port))
        #expect(try fourth.response().status == 101)
    }
}
