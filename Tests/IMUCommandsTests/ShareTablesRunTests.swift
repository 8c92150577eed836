import Foundation
import Testing

/// `imu run` takes its socket from the rules file's `[socket]` table (the command line's
/// `--socket` over it) and refuses a bad table with file:line before it starts.
@Suite(.serialized) struct ShareTablesRunTests {
    func rulesFile(_ extra: String) throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("share-tables-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rules = directory.appendingPathComponent("rules.toml")
        try ("[[rule]]\nname = \"quiet\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n\n" + extra)
            .write(to: rules, atomically: true, encoding: .utf8)
        return (directory, rules.path)
    }

    @Test func theSocketTableChoosesPathAndLimitTheOptionWins() async throws {
        let (directory, rules) = try rulesFile("")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fromFile = directory.appendingPathComponent("file.sock").path
        try ("[[rule]]\nname = \"quiet\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n\n"
            + "[socket]\npath = \"\(fromFile)\"\nmax-clients = 3\n").write(toFile: rules, atomically: true, encoding: .utf8)
        let served = try await imu("run", "--config", rules, "--sim", "still", "--duration", "1", within: 180)
        #expect(served.succeeded, "\(served)")
        #expect(served.stderr.contains("serving clients on \(fromFile) (mode 660, at most 3 at once)"), "\(served.stderr)")

        let option = directory.appendingPathComponent("option.sock").path
        let overridden = try await imu("run", "--config", rules, "--sim", "still", "--duration", "1", "--socket", option, within: 180)
        #expect(overridden.succeeded, "\(overridden)")
        #expect(overridden.stderr.contains("serving clients on \(option) (mode 660, at most 3 at once)"), "\(overridden.stderr)")

        try ("[[rule]]\nname = \"quiet\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n\n"
            + "[socket]\nenabled = false\n").write(toFile: rules, atomically: true, encoding: .utf8)
        let off = try await imu("run", "--config", rules, "--sim", "still", "--duration", "1", within: 180)
        #expect(off.succeeded, "\(off)")
        #expect(!off.stderr.contains("serving clients"), "\(off.stderr)")
    }

    @Test func aBadTableIsRefusedWithFileAndLine() async throws {
        let (directory, rules) = try rulesFile("[dbus]\nbus = \"systemd\"\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try await imu("run", "--config", rules, "--sim", "still", "--duration", "1", within: 180)
        #expect(!refused.succeeded)
        #expect(refused.stderr.contains("\(rules):8:1: `bus` in [dbus] must be one of \"system\", \"session\", \"none\", found the string \"systemd\""), "\(refused.stderr)")
    }
}
