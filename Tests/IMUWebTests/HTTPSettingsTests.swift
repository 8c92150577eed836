import Foundation
import Testing
@testable import IMUConfigFile
@testable import IMUWeb

@Suite struct HTTPSettingsTests {
    @Test func addressesAreHostAndPort() throws {
        #expect(try HTTPSettings.parseAddress("127.0.0.1:8080").get() == ("127.0.0.1", 8080))
        #expect(try HTTPSettings.parseAddress("0.0.0.0:80").get() == ("0.0.0.0", 80))
        #expect(try HTTPSettings.parseAddress("[::1]:8080").get() == ("::1", 8080))
        #expect(try HTTPSettings.parseAddress("[::]:9000").get() == ("::", 9000))
        #expect(try HTTPSettings.parseAddress("localhost:8080").get() == ("127.0.0.1", 8080))
        for bad in ["8080", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536", "pi.local:8080", "[::1]8080", "[zz]:80", "1.2.3:80", ":80"] {
            #expect(throws: HTTPSettings.AddressProblem.self, "\(bad)") { try HTTPSettings.parseAddress(bad).get() }
        }
    }

    @Test func loopbackIsThisMachineOnly() {
        #expect(HTTPSettings(host: "127.0.0.1", port: 1).isLoopback)
        #expect(HTTPSettings(host: "127.1.2.3", port: 1).isLoopback)
        #expect(HTTPSettings(host: "::1", port: 1).isLoopback)
        #expect(!HTTPSettings(host: "0.0.0.0", port: 1).isLoopback)
        #expect(!HTTPSettings(host: "::", port: 1).isLoopback)
        #expect(!HTTPSettings(host: "192.168.1.5", port: 1).isLoopback)
    }

    @Test func theTableIsCheckedWithFileAndLine() throws {
        let good = """
            [[rule]]
            name = "x"

            [http]
            listen = "0.0.0.0:8080"
            allow-control = true
            max-clients = 12
            """
        let settings = try #require(try HTTPSettings.parse(good, file: "r.toml"))
        #expect(settings == HTTPSettings(host: "0.0.0.0", port: 8080, allowControl: true, maxClients: 12))
        #expect(try HTTPSettings.parse("[[rule]]\nname = \"x\"\n", file: "r.toml") == nil)

        func refusal(_ text: String) -> String {
            do {
                _ = try HTTPSettings.parse(text, file: "r.toml")
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal("[http]\nlisten = \"pi.local:8080\"\n").hasPrefix("r.toml:2:"))
        #expect(refusal("[http]\nlisten = \"pi.local:8080\"\n").contains("must name an IPv4 address"))
        #expect(refusal("[http]\nallow-control = true\n").contains("missing required key `listen`"))
        #expect(refusal("[http]\nlisten = \"127.0.0.1:1\"\nallow_control = true\n") .contains("r.toml:3:1: unknown key `allow_control` in [http]"))
        #expect(refusal("[http]\nlisten = \"127.0.0.1:1\"\nallow-control = \"yes\"\n").contains("r.toml:3:"))
        #expect(refusal("[http]\nlisten = \"127.0.0.1:1\"\nmax-clients = 0\n").contains("from 1 to 64"))
        #expect(refusal("http = 3\n").contains("a table, written [http]"))
    }
}

/// `--http ADDR:PORT` with the rules file's `[http]`.
@Suite struct HTTPOptionTests {
    static func rules(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "imu-http-\(getpid())-\(UUID().uuidString).toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theOptionFillsATableWithoutListen() throws {
        let path = try Self.rules("[http]\nallow-control = true\nmax-clients = 3\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let settings = try #require(try HTTPSettings.resolve(rulesFile: try .read(path), listen: "127.0.0.1:8123"))
        #expect(settings.host == "127.0.0.1" && settings.port == 8123 && settings.allowControl && settings.maxClients == 3)
        // Without the option the table still needs its listen, said with file and line.
        let error = try #require(throws: HTTPSettingsError.self) { try HTTPSettings.resolve(rulesFile: try .read(path), listen: nil) }
        #expect(error.description.contains(path) && error.description.contains("missing required key `listen`"))
    }

    @Test func theOptionReplacesListenOrStandsAlone() throws {
        let withListen = try Self.rules("[http]\nlisten = \"0.0.0.0:80\"\n")
        let without = try Self.rules("[[rule]]\nname = \"x\"\n")
        defer { for p in [withListen, without] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(try HTTPSettings.resolve(rulesFile: try .read(withListen), listen: "[::1]:8080")?.host == "::1")
        #expect(try HTTPSettings.resolve(rulesFile: try .read(withListen), listen: nil)?.port == 80)
        #expect(try HTTPSettings.resolve(rulesFile: try .read(without), listen: "127.0.0.1:9")?.port == 9)
        #expect(try HTTPSettings.resolve(rulesFile: try .read(without), listen: nil) == nil)
        let bad = try #require(throws: HTTPSettingsError.self) { try HTTPSettings.resolve(rulesFile: try .read(without), listen: "pi.local:80") }
        #expect(bad.description.hasPrefix("--http must name") && bad.description.contains("pi.local:80"))
        // A listen that is there is checked, even when the option replaces it.
        let wrong = try Self.rules("[http]\nlisten = \"nowhere\"\n")
        defer { try? FileManager.default.removeItem(atPath: wrong) }
        #expect(throws: HTTPSettingsError.self) { try HTTPSettings.resolve(rulesFile: try .read(wrong), listen: "127.0.0.1:9") }
    }
}
