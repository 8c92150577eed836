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
        let control = WebAccess(settings: HTTPSettings(host: "127.0.0.1", port: 8080, allowControl: true), token: token)
        #expect(control.checkRead(headers: same) == nil)  // reading on loopback: open
        #expect(control.checkControl(headers: same)?.status == 401)  // control: the token, loopback included
        let signedIn = same.merging(["authorization": "Bearer " + token.value]) { $1 }
        #expect(control.checkControl(headers: signedIn) == nil)
        #expect(control.checkControl(headers: same.merging(["cookie": "imu_token=" + token.value]) { $1 }) == nil)
        #expect(control.checkControl(headers: signedIn.merging(["origin": "http://evil.example"]) { $1 })?.status == 403)
        #expect(control.checkControl(headers: signedIn.merging(["content-type": "text/plain"]) { $1 })?.status == 415)
        let noToken = WebAccess(settings: HTTPSettings(host: "127.0.0.1", port: 8080, allowControl: true), token: nil)
        #expect(noToken.checkControl(headers: signedIn)?.status == 401)
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

/// The token file is believed only when nobody else could have chosen or read it.
@Suite struct TokenFileTests {
    static func directory() -> String { NSTemporaryDirectory() + "imu-web-plant-\(getpid())-\(UUID().uuidString)" }

    @Test func aTokenPlantedByAnotherUserIsRefused() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/http-token"
        let planted = String(repeating: "c", count: 64)
        FileManager.default.createFile(atPath: path, contents: Data((planted + "\n").utf8), attributes: [.posixPermissions: 0o600])
        // Another owner: chown needs root (the CI runs the tests as root); a user cannot plant a
        // file of another user, so the pure check below covers the rule there.
        if geteuid() == 0 {
            #expect(chown(path, 65534, 65534) == 0)
            let error = try #require(throws: AccessToken.TokenError.self) { try AccessToken.loadOrCreate(in: directory) }
            #expect(error.message.contains(path) && error.message.contains("uid 65534") && error.message.contains("remove it"))
        }
        #expect(TokenFile.problem(mode: S_IFREG | 0o600, fileOwner: 1001, expectedOwner: 1000)?.contains("uid 1001") == true)
        #expect(TokenFile.problem(mode: S_IFREG | 0o600, fileOwner: 1000, expectedOwner: 1000) == nil)
    }

    @Test func aTokenOthersMayReadIsRefused() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try AccessToken.loadOrCreate(in: directory)
        for mode: mode_t in [0o644, 0o640, 0o606, 0o660] {
            #expect(chmod(made.path, mode) == 0)
            let error = try #require(throws: AccessToken.TokenError.self) { try AccessToken.loadOrCreate(in: directory) }
            #expect(error.message.contains(made.path) && error.message.contains(TokenFile.octal(mode)) && error.message.contains("0600"), "\(error)")
        }
        #expect(chmod(made.path, 0o600) == 0)
        #expect(try AccessToken.loadOrCreate(in: directory).value == made.value)
    }

    @Test func aLinkOrAFifoInTheTokensPlaceIsRefused() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let elsewhere = directory + "/elsewhere"
        FileManager.default.createFile(atPath: elsewhere, contents: Data(String(repeating: "d", count: 64).utf8), attributes: [.posixPermissions: 0o600])
        #expect(symlink(elsewhere, directory + "/http-token") == 0)
        let link = try #require(throws: AccessToken.TokenError.self) { try AccessToken.loadOrCreate(in: directory) }
        #expect(link.message.contains("symbolic link"))
        unlink(directory + "/http-token")
        #expect(mkfifo(directory + "/http-token", 0o600) == 0)
        let fifo = try #require(throws: AccessToken.TokenError.self) { try AccessToken.loadOrCreate(in: directory) }
        #expect(fifo.message.contains("not a regular file"))
    }

    @Test func aDirectoryOthersMayWriteIsRefused() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        #expect(chmod(directory, 0o777) == 0)  // past the umask
        let error = try #require(throws: AccessToken.TokenError.self) { try AccessToken.loadOrCreate(in: directory) }
        #expect(error.message.contains(directory) && error.message.contains("0777"))
    }

    @Test func theStateDirectoryIsNeverASharedTemporaryOne() {
        // Cron, `env -i`, containers: no variables at all. The account's home, else nothing.
        #expect(StateDirectory.choose(environment: [:], serviceDirectory: nil, accountHome: "/home/pi") == "/home/pi/.local/state/imu")
        #expect(StateDirectory.choose(environment: [:], serviceDirectory: nil, accountHome: nil) == nil)
        #expect(StateDirectory.choose(environment: ["HOME": "relative"], serviceDirectory: nil, accountHome: nil) == nil)
        #expect(StateDirectory.choose(environment: [:], serviceDirectory: "/var/lib/imu", accountHome: nil) == "/var/lib/imu")
        #expect(StateDirectory.choose(environment: ["STATE_DIRECTORY": "/var/lib/imu:/other"], serviceDirectory: nil, accountHome: nil) == "/var/lib/imu")
        #expect(StateDirectory.choose(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"], serviceDirectory: nil, accountHome: "/p") == "/s/imu")
        #expect(StateDirectory.choose(environment: ["HOME": "/h"], serviceDirectory: nil, accountHome: "/p") == "/h/.local/state/imu")
        #expect(StateDirectory.Missing().description.contains("STATE_DIRECTORY"))
    }
}
