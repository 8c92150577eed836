import Foundation
import Testing
@testable import IMUWeb

/// `imu token`'s link: issued by the running dashboard to whoever shows the token, once.
@Suite(.serialized) struct SignInLinkTests {
    @Test func theTokenBuysAOneTimeLink() throws {
        let (dashboard, state) = try DashboardServerTests.serve(HTTPSettings(host: "0.0.0.0", port: 0))
        defer { dashboard.stop(); try? FileManager.default.removeItem(atPath: state) }
        let port = dashboard.boundPort
        let token = try #require(try AccessToken.load(in: state, owner: nil))
        let settings = HTTPSettings(host: "0.0.0.0", port: port)
        let link = try SignInLink.fetch(settings: settings, token: token, linkHost: "pi")
        #expect(link.hasPrefix("http://pi:\(port)/login?code="))
        let path = String(link[link.range(of: "/login")!.lowerBound...])
        let c = try RawConnection(port: port)
        try c.send(get(path, port: port))
        let signedIn = try c.response()
        #expect(signedIn.status == 303 && signedIn.headers["set-cookie"]?.hasPrefix("imu_token=\(token.value);") == true)
        let again = try RawConnection(port: port)
        try again.send(get(path, port: port))
        #expect(try again.response().status == 401)
        // Without the token (or with another): no code.
        let wrong = AccessToken(value: String(repeating: "0", count: 64), path: "", created: false)
        #expect(throws: SignInLink.Failure.self) { try SignInLink.fetch(settings: settings, token: wrong, linkHost: "pi") }
        let c2 = try RawConnection(port: port)
        try c2.send(request("POST", "/api/sign-in-code", port: port, headers: ["Content-Type": "application/json"]))
        #expect(try c2.response().status == 401)
    }

    @Test func nobodyListeningIsSaid() throws {
        let token = AccessToken(value: String(repeating: "0", count: 64), path: "", created: false)
        // Port 1 on loopback: nothing listens there.
        let error = try #require(throws: SignInLink.Failure.self) {
            try SignInLink.fetch(settings: HTTPSettings(host: "127.0.0.1", port: 1), token: token, linkHost: "127.0.0.1")
        }
        #expect(error.description.contains("did not answer"))
    }
}
