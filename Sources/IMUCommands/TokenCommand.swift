import ArgumentParser
import Foundation
import IMUConfigFile
import IMUWeb

/// `imu token`: the dashboard's token and a one-time sign-in link, for whoever may read the
/// token file (the daemon never logs either).
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Show the web dashboard's token and a one-time sign-in link.",
        usage: "imu token [--config <rules.toml>] [--http <host:port>] [<options>]",
        discussion: """
            The token is kept in the daemon's state directory, readable by its user only
            (/var/lib/imu/http-token for the service: use sudo). The link comes from the
            running dashboard: open it once, within 10 minutes, and the browser keeps the
            token as a cookie.

            Examples:
              sudo imu token
              imu token --config rules.toml
              imu token --http 127.0.0.1:8080 --quiet
            """)

    @Option(help: ArgumentHelp("The rules file whose [http] table says where the dashboard is.", valueName: "rules.toml"))
    var config: String = "/etc/imu/rules.toml"

    @Option(help: ArgumentHelp("The dashboard's address, e.g. 127.0.0.1:8080; overrides [http] listen in the rules file.", valueName: "host:port"))
    var http: String?

    @Option(help: ArgumentHelp("Where the token is kept (default: the daemon's state directory, chosen as `imu run` chooses it).", valueName: "directory"))
    var stateDirectory: String?

    @Flag(help: "Print the token alone (for scripts), no link.")
    var quiet = false

    func run() throws {
        let directory = try CommandError.wrapping { try stateDirectory ?? StateDirectory.path(environment: ProcessInfo.processInfo.environment) }
        // Whoever runs this may be another user than the daemon's (root, for the service's token):
        // the file's owner is not checked, its privacy is.
        guard let token = try CommandError.wrapping({ try AccessToken.load(in: directory, owner: nil) }) else {
            throw CommandError("no dashboard token in \(directory): `imu run` makes one when it serves the dashboard "
                + "off loopback or with allow-control = true (as another user? try sudo, or --state-directory)")
        }
        if quiet {
            print(token.value)
            return
        }
        print("token: \(token.value)")
        print("kept in: \(token.path)")
        let haveFile = FileManager.default.fileExists(atPath: config)
        let file = haveFile ? try CommandError.wrapping { try ConfigurationFile.read(config) } : nil
        guard let settings = try CommandError.wrapping({ try HTTPSettings.resolve(rulesFile: file, listen: http) }) else {
            let why = haveFile ? "\(config) has no [http] table" : "there is no \(config)"
            print("no sign-in link: \(why); name the dashboard with --http HOST:PORT or --config RULES")
            return
        }
        do {
            let link = try SignInLink.fetch(settings: settings, token: token, linkHost: Self.linkHost(settings))
            print("sign in (once, within 10 minutes): \(link)")
        } catch {
            print("no sign-in link: \(error)")
        }
    }

    /// The name a browser can open: the listening address, or this machine's name for a wildcard.
    static func linkHost(_ settings: HTTPSettings) -> String {
        guard settings.host == "0.0.0.0" || settings.host == "::" else { return settings.host }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return settings.host == "::" ? "::1" : "127.0.0.1" }
        return String(cString: name)
    }
}
