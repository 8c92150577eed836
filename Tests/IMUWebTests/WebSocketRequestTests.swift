import Foundation
import Testing
@testable import IMUWeb

/// Requests on the dashboard's WebSocket, over a real connection to a served dashboard.
@Suite(.serialized) struct WebSocketRequestTests {
    /// issue 25: a rate far below the engine's (either form, `rate_hz` or `interval_ms`) made a
    /// divisor too large for an Int and killed the daemon. Refused now; the connection serves on.
    @Test func ratesNoDivisorCanGiveAreRefusedAndTheConnectionServesOn() throws {
        let feed = ScriptedFeed()
        let (dashboard, state) = try DashboardServerTests.serve(HTTPSettings(host: "127.0.0.1", port: 0), feed: feed)
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let c = try RawConnection(port: dashboard.boundPort)
        try c.send(webSocketUpgrade(port: dashboard.boundPort))
        #expect(try c.response().status == 101)
        _ = c.text()
        for (request, key) in [(#"{"subscribe":["motion"],"rate_hz":1e-20}"#, "rate_hz"),
                               (#"{"op":"subscribe","stream":"motion","interval_ms":1e30}"#, "interval_ms"),
                               (#"{"op":"subscribe","stream":"motion","rate_hz":1e-20}"#, "rate_hz")] {
            try c.sendText(request)
            let reply = try #require(c.text(), "\(request): no answer")
            #expect(reply.hasPrefix("{\"error\":\"\\\"\(key)\\\" must be from"), "\(request) → \(reply)")
        }
        try c.sendText(#"{"subscribe":["motion"],"rate_hz":25}"#)
        #expect(c.text()?.contains("\"quat_w\"") == true)
        #expect(feed.subscriptions == 1)
    }
}
