import Foundation
import Testing
@testable import IMUWeb

@Suite struct WebAccessTests {
    let token = AccessToken(value: String(repeating: "ab", count: 32), path: "/x/http-token", created: true)

    @Test func loopbackNeedsNoTokenButALoopbackHost() {
        let access = WebAccess(settings: HTTPSettings(host: "127.0.0.1", port: 8080), token: nil)
        #expect(access.checkRead(headers: ["host": "127.0.0.1:8080"]) == nil)
        #expect(access.checkRead(headers: ["host": "localhost:8080"]) == nil)
        #expect(access.checkRead(headers: ["host": "[::1]:8080"]) == nil)
        // DNS rebinding: a name that resolved to 127.0.0.1 for a page elsewhere.
        #expect(access.checkRead(headers: ["host": "evil.example:8080"])?.status == 421)
        #expect(access.checkRead(headers: [:])?.status == 421)
    }

    @Test func otherAddressesNeedTheTokenAsBearerOrCookie() {
        let access = WebAccess(settings: HTTPSettings(host: "0.0.0.0", port: 8080), token: token)
        #expect(access.checkRead(headers: ["host": "pi:8080"])?.status == 401)
        #expect(access.checkRead(headers: ["host": "pi:8080", "authorization": "Bearer " + token.value]) == nil)
        #expect(access.checkRead(headers: ["host": "pi:8080", "authorization": "bearer  " + token.value]) == nil)
        #expect(access.checkRead(headers: ["host": "pi:8080", "authorization": "Bearer " + token.value.dropLast() + "c"])?.status == 401)
        #expect(access.checkRead(headers: ["host": "pi:8080", "authorization": "Basic " + token.value])?.status == 401)
        #expect(access.checkRead(headers: ["host": "pi:8080", "cookie": "a=b; imu_token=\(token.value); c=d"]) == nil)
        #expect(access.checkRead(headers: ["host": "pi:8080", "cookie": "imu_token=\(token.value)x"])?.status == 401)
        #expect(access.signInCookie()!.contains("HttpOnly; SameSite=Strict"))
    }

    @Test func webSocketsAndControlRefuseOtherSites() {
        let readOnly = WebAccess(settings: HTTPSettings(host: "127.0.0.1", port: 8080), token: nil)
        let same = ["host": "127.0.0.1:8080", "origin": "http://127.0.0.1:8080", "content-type": "application/json"]
        #expect(readOnly.checkWebSocket(headers: same) == nil)
        #expect(readOnly.checkWebSocket(headers: same.merging(["origin": "http://evil.example"]) { $1 })?.status == 403)
        #expect(readOnly.checkControl(headers: same)?.status == 403)  // read-only
        let control = WebAccess(settings: HTTPSettings(host: "127.0.0.1", port: 8080, allowControl: true), token: nil)
        #expect(control.checkControl(headers: same) == nil)
        #expect(control.checkControl(headers: same.merging(["origin": "http://evil.example"]) { $1 })?.status == 403)
        #expect(control.checkControl(headers: same.merging(["content-type": "text/plain"]) { $1 })?.status == 415)
    }

    @Test func theTokenIsMadeOnceAndKeptPrivate() throws {
        let directory = NSTemporaryDirectory() + "imu-web-token-\(getpid())-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try AccessToken.loadOrCreate(in: directory + "/state")
        #expect(made.created)
        #expect(made.value.count == 64 && made.value.allSatisfy(\.isHexDigit))
        let attributes = try FileManager.default.attributesOfItem(atPath: made.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let again = try AccessToken.loadOrCreate(in: directory + "/state")
        #expect(!again.created && again.value == made.value)
        try "short\n".write(toFile: made.path, atomically: true, encoding: .utf8)
        #expect(throws: AccessToken.TokenError.self) { try AccessToken.loadOrCreate(in: directory + "/state") }
    }

    @Test func signInCodesWorkOnceAndExpire() {
        let codes = LoginCodes(lifetime: 600)
        let code = codes.issue(now: 100)
        #expect(!codes.redeem("not-a-code", now: 101))
        #expect(codes.redeem(code, now: 101))
        #expect(!codes.redeem(code, now: 102))
        let late = codes.issue(now: 100)
        #expect(!codes.redeem(late, now: 701))
    }
}
