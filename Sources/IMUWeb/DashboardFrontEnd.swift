import Foundation
import IMUEngine
import IMUFrontEnd

/// The web dashboard as one of the daemon's front ends: started with the daemon (after the
/// engine exists, before it runs), stopped with it; the rules panel follows the daemon's news.
public final class DashboardFrontEnd: FrontEnd {
    public let name = "the web dashboard"
    /// Asked for by name (`[http]`, `--http`): a dashboard that cannot bind stops the start.
    public var isRequired: Bool { true }
    public let settings: HTTPSettings
    /// Where the token is kept; nil: `StateDirectory.path` of the environment.
    let stateDirectory: String?
    public private(set) var dashboard: Dashboard?
    private var newsKey: Int?
    private var news: DaemonNews?

    public init(settings: HTTPSettings, stateDirectory: String? = nil) {
        self.settings = settings
        self.stateDirectory = stateDirectory
    }

    public func start(_ context: FrontEndContext) throws {
        let environment = ProcessInfo.processInfo.environment
        let engine = context.engine
        let calibration = context.calibration
        let dashboard: Dashboard
        do {
            dashboard = try Dashboard(
                settings: settings, feed: context.feed, calibration: calibration,
                calibrationMembers: { Self.calibrationMembers(engine.health, magnetometer: calibration.hasMagnetometer) },
                stateDirectory: try stateDirectory ?? StateDirectory.path(environment: environment), log: context.log)
            try dashboard.start()
        } catch {
            throw FrontEndError("the web dashboard: \(error)")
        }
        context.log.notice("dashboard at \(dashboard.url())", metadata: [
            "allow_control": "\(settings.allowControl)", "max_clients": "\(settings.maxClients)",
        ])
        if let token = dashboard.access.token {
            // Never the token nor a sign-in code: whoever reads the journal (or a service's
            // stderr) must not get in by it. `imu token` shows both to whoever can read the file.
            let made = token.created ? "made a dashboard token in" : "the dashboard needs the token kept in"
            context.log.notice("\(made) \(token.path): `imu token` shows it and a sign-in link (Authorization: Bearer, or paste it on the page)")
        }
        newsKey = context.news.observe { [dashboard] happening in
            switch happening {
            case let .rules(rules, lines): dashboard.setRules(rules, lines: lines)
            case let .ruleFired(rule, eventLine, timestamp, lines):
                dashboard.ruleFired(rule: rule, eventLine: eventLine, timestamp: timestamp, lines: lines)
            case .levels(let lines): dashboard.setLevels(lines)
            }
        }
        news = context.news
        self.dashboard = dashboard
    }

    public func stop() {
        if let newsKey { news?.remove(newsKey) }
        dashboard?.stop()
    }

    /// `"gyroscope":"calibrated","accelerometer":"uncalibrated","magnetometer":"high"` from health.
    static func calibrationMembers(_ health: EngineHealth, magnetometer: Bool) -> String {
        let parts = health.calibration.components(separatedBy: ", ")
        func state(_ part: String) -> String { parts.contains(part) ? "calibrated" : "uncalibrated" }
        var members = "\"gyroscope\":\"\(state("gyroscope"))\",\"accelerometer\":\"\(state("accelerometer"))\""
        if magnetometer {
            let mag = parts.contains("magnetometer") ? (health.magnetometerAccuracy ?? "calibrated") : "uncalibrated"
            members += ",\"magnetometer\":\"\(mag)\""
        }
        return members
    }
}

extension HTTPSettings {
    /// The dashboard's address as another machine (Home Assistant's device page) reaches it:
    /// a wildcard address becomes this machine's host name.
    public var reachableURL: String {
        var host = self.host
        if host == "0.0.0.0" || host == "::" || host == "" { host = ProcessInfo.processInfo.hostName }
        if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(port)/"
    }
}
