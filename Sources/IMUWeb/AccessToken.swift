import Foundation
import IMUCalibration

/// The secret a browser or program must show off loopback, and everywhere to change state: 32
/// random bytes as hex, kept in the daemon's state directory (`http-token`, mode 0600) so it
/// survives restarts, and shown only by `imu token`. Presented as `Authorization: Bearer <token>`
/// or as the `imu_token` cookie that a one-time link sets.
public struct AccessToken: Sendable {
    public let value: String
    public let path: String
    /// Made by this call; false when it was read from the file.
    public let created: Bool

    public static let fileName = "http-token"

    /// Reads the token in `directory`, or makes one there (and the directory, 0700). A file
    /// that is there is used only when it is a regular file owned by this process's user with no
    /// access for the group or others (0600): anything else may have been planted or read by
    /// someone else, and is refused with its path and the fix.
    public static func loadOrCreate(in directory: String) throws(TokenError) -> AccessToken {
        let path = joinPath(directory, fileName)
        if let existing = try read(path, owner: geteuid()) { return existing }
        try TokenFile.makeDirectory(directory)
        let value = randomHex(bytes: 32)
        do {
            try AtomicFile.write(value + "\n", to: path, permissions: 0o600)
        } catch {
            throw TokenError(message: "\(error)")
        }
        return AccessToken(value: value, path: path, created: true)
    }

    /// The token in `directory` when there is one (nil: no file). `owner`: the user the file
    /// must belong to (the daemon's); nil for a reader who is not the daemon (`imu token` run
    /// by an administrator), which still refuses a file that the group or others may read.
    public static func load(in directory: String, owner: uid_t?) throws(TokenError) -> AccessToken? {
        try read(joinPath(directory, fileName), owner: owner)
    }

    static func read(_ path: String, owner: uid_t?) throws(TokenError) -> AccessToken? {
        guard let text = try TokenFile.readPrivate(path, owner: owner) else { return nil }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard value.count >= 32, value.allSatisfy(\.isHexDigit) else {
            throw TokenError(message: "\(path) does not hold a token (at least 32 hex digits); remove it and a new one is made")
        }
        return AccessToken(value: value, path: path, created: false)
    }

    init(value: String, path: String, created: Bool) {
        self.value = value
        self.path = path
        self.created = created
    }

    /// Compares in time that does not depend on where the first difference is.
    public func matches<S: StringProtocol>(_ candidate: S) -> Bool {
        let a = Array(value.utf8), b = Array(candidate.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    /// Hex of `bytes` from the system's generator (getrandom(2) on Linux).
    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }

    public struct TokenError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

/// One-time sign-in codes: the link the daemon prints carries one; visiting it once sets the
/// token cookie, and the code is gone. Codes expire after `lifetime` seconds.
public final class LoginCodes: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [String: Double] = [:]
    public let lifetime: Double

    public init(lifetime: Double = 600) { self.lifetime = lifetime }

    public func issue(now: Double = ProcessInfo.processInfo.systemUptime) -> String {
        let code = AccessToken.randomHex(bytes: 16)
        lock.lock(); defer { lock.unlock() }
        codes = codes.filter { $0.value > now }
        codes[code] = now + lifetime
        return code
    }

    /// True once for a code issued less than `lifetime` ago.
    public func redeem(_ code: String, now: Double = ProcessInfo.processInfo.systemUptime) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard let expiry = codes.removeValue(forKey: code) else { return false }
        return expiry > now
    }
}

func joinPath(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
