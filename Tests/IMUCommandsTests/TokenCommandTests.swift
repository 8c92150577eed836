import Foundation
import Testing

/// `imu token`: shows a private token to whoever may read it, refuses one others may read, and
/// says what to do when there is none.
@Suite struct TokenCommandTests {
    @Test func showsAPrivateTokenAndRefusesOthers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-token-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let none = try await IMUProcess(["token", "--state-directory", directory], environment: [:]).finish(within: 30)
        #expect(!none.succeeded && none.stderr.contains("no dashboard token in \(directory)"), "\(none)")

        let token = String(repeating: "5a", count: 32)
        let path = directory + "/http-token"
        FileManager.default.createFile(atPath: path, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let quiet = try await IMUProcess(["token", "--state-directory", directory, "--quiet"], environment: [:]).finish(within: 30)
        #expect(quiet.succeeded && quiet.stdout == token + "\n", "\(quiet)")
        // No dashboard named: the token, its file, and why there is no link.
        let shown = try await IMUProcess(["token", "--state-directory", directory, "--config", directory + "/none.toml"], environment: [:]).finish(within: 30)
        #expect(shown.succeeded && shown.lines.contains("token: \(token)") && shown.lines.contains("kept in: \(path)"), "\(shown)")
        #expect(shown.stdout.contains("no sign-in link"))

        #expect(chmod(path, 0o644) == 0)
        let readable = try await IMUProcess(["token", "--state-directory", directory, "--quiet"], environment: [:]).finish(within: 30)
        #expect(!readable.succeeded && readable.stderr.contains(path) && readable.stderr.contains("0644") && !readable.stdout.contains(token), "\(readable)")
    }
}
