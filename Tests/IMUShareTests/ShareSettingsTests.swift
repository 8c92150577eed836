import IMUSensorProxy
import Testing
@testable import IMUShare

/// The rules file's `[socket]` and `[dbus]` tables (each parsed by its front end's module):
/// read when there, checked with file:line and what was expected.
@Suite struct ShareSettingsTests {
    func refusal(_ text: String) -> String {
        do {
            _ = try SocketFileSettings.parse(text, file: "r.toml")
            _ = try DBusFileSettings.parse(text, file: "r.toml")
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func theTablesAreRead() throws {
        let text = """
            [[rule]]
            name = "x"

            [socket]
            path = "/run/imu/other.sock"
            enabled = false
            max-clients = 8
            max-clients-per-user = 3
            idle-seconds = 120

            [dbus]
            bus = "system"
            """
        let settings = try SocketFileSettings.parse(text, file: "r.toml")
        #expect(settings.socketPath == "/run/imu/other.sock")
        #expect(settings.socketEnabled == false)
        #expect(settings.maxClients == 8)
        #expect(settings.maxClientsPerUser == 3 && settings.idleSeconds == 120)
        #expect(try DBusFileSettings.parse(text, file: "r.toml").bus == "system")
        let none = try SocketFileSettings.parse("[[rule]]\nname = \"x\"\n", file: "r.toml")
        #expect(none == SocketFileSettings())
        #expect(none.socketEnabled && none.socketPath == nil)
        #expect(try DBusFileSettings.parse("[[rule]]\nname = \"x\"\n", file: "r.toml").bus == nil)
    }

    @Test func mistakesAreNamedWithFileAndLine() {
        #expect(refusal("[socket]\npath = \"imu.sock\"\n") == "r.toml:2:1: `path` in [socket] must be an absolute path of at most 107 bytes, like \"/run/imu/imu.sock\", found the string \"imu.sock\"")
        #expect(refusal("[socket]\nenabled = \"no\"\n").hasPrefix("r.toml:2:"))
        #expect(refusal("[socket]\nmax-clients = 0\n").contains("from 1 to 1024, found the integer 0"))
        #expect(refusal("[socket]\nmax_clients = 4\n").contains("r.toml:2:1: unknown key `max_clients` in [socket]"))
        #expect(refusal("[socket]\nmax-clients-per-user = 0\n").contains("from 1 to 1024, found the integer 0"))
        #expect(refusal("[socket]\nidle-seconds = 1e300\n").contains("r.toml:2:"))
        #expect(refusal("[socket]\nidle-seconds = 0\n").contains("from 1 to 86400, found the integer 0"))
        #expect(refusal("[socket]\nmax_clients = 4\n").contains("did you mean `max-clients`?"))
        #expect(refusal("[dbus]\nbus = \"systemd\"\n") == "r.toml:2:1: `bus` in [dbus] must be one of \"system\", \"session\", \"none\", found the string \"systemd\"")
        #expect(refusal("dbus = \"system\"\n").contains("`dbus` must be a table, written [dbus]"))
    }
}
