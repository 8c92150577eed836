import Foundation
import IMUCalibration
import IMUEngine
import IMUWeb

/// The web dashboard as one of the daemon's front ends: started with it (after the engine
/// exists, before it runs), stopped with it.
extension Daemon {
    /// `[http]` of the rules file (checked with file:line), `listen` replaced by `--http` (which
    /// also stands for a `listen` the table leaves out).
    static func httpSettings(_ settings: Settings) throws(DaemonError) -> HTTPSettings? {
        do {
            return try HTTPSettings.resolve(rulesFile: settings.rulesFile ?? "", listen: settings.httpListen, readFile: settings.rulesFile != nil)
        } catch {
            throw DaemonError("\(error)")
        }
    }

    /// The dashboard's address as another machine (Home Assistant's device page) reaches it:
    /// a wildcard address becomes this machine's host name.
    static func dashboardURL(_ http: HTTPSettings) -> String {
        var host = http.host
        if host == "0.0.0.0" || host == "::" || host == "" { host = ProcessInfo.processInfo.hostName }
        if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(http.port)/"
    }

    func startDashboard(_ http: HTTPSettings) throws(DaemonError) -> Dashboard {
        let environment = ProcessInfo.processInfo.environment
        let engine = self.engine
        let magnetometer = device.driver.capabilities.magnetometer
        let link = DaemonLink(
            chip: device.chipIdentity, hasMagnetometer: magnetometer,
            calibrationDirectory: CalibrationDirectory.forWriting(environment: environment),
            applyCalibration: { file in engine.setCalibration(SensorCalibration(file: file)) },
            calibrationMembers: { Self.calibrationMembers(engine.health, magnetometer: magnetometer) })
        let dashboard: Dashboard
        do {
            dashboard = try Dashboard(
                settings: http, feed: EngineFeed(engine: engine), daemon: link,
                stateDirectory: try settings.stateDirectory ?? StateDirectory.path(environment: environment), log: log)
            try dashboard.start()
        } catch {
            throw DaemonError("the web dashboard: \(error)")
        }
        log.notice("dashboard at \(dashboard.url())", metadata: [
            "allow_control": "\(http.allowControl)", "max_clients": "\(http.maxClients)",
        ])
        if let token = dashboard.access.token {
            // Never the token nor a sign-in code: whoever reads the journal (or a service's
            // stderr) must not get in by it. `imu token` shows both to whoever can read the file.
            let made = token.created ? "made a dashboard token in" : "the dashboard needs the token kept in"
            log.notice("\(made) \(token.path): `imu token` shows it and a sign-in link (Authorization: Bearer, or paste it on the page)")
        }
        return dashboard
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
