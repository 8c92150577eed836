import ArgumentParser
import Foundation
import IMUBoards
import IMUBus
import IMUCalibration
import IMUConfigFile
import IMUDaemon
import IMUFrontEnd
import IMUEvents
import IMULinux
import IMUMQTT
import IMUMotion
import IMURules
import IMUTwin
import IMUWeb
import Logging
import IMUDevices
import IMUEngine
import IMUFormats
import IMUSensorProxy
import IMUShare

/// `imu run`: the daemon. Reads the IMU, fuses, recognises events and fires the rules' actions.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run as a service: events from the IMU fire the rules file's GPIO and command actions.", usage: "imu run [--config <rules.toml>] [--sim [<scenario>]] [<options>]",
        discussion: """
            Logs go to standard error with journald priorities. SIGHUP reloads the rules (an invalid \
            file is refused and the old rules stay; running commands are stopped); SIGTERM stops: \
            pulses end, running commands are stopped and reaped, GPIO lines back low.

            Examples:
              imu run --config /etc/imu/rules.toml
              imu run --config rules.toml --sim shake
              imu run --config rules.toml --low-power
            """)

    @Option(help: "The rules file (default: /etc/imu/rules.toml when it exists; without one the IMU is shared and no rules fire).")
    var config: String?

    static let installedRules = "/etc/imu/rules.toml"

    /// The rules file in force: --config, else the installed one when it exists; nil: none
    /// (the daemon shares the IMU through its front ends and fires no rules).
    var rulesFile: String? {
        config ?? (FileManager.default.fileExists(atPath: Self.installedRules) ? Self.installedRules : nil)
    }

    @OptionGroup var source: IMUSourceOptions

    @Option(parsing: .unconditional, help: "Samples per second.")
    var rate: Double = 100

    @Option(parsing: .unconditional, help: "Stop after this many seconds (default: until SIGTERM).")
    var duration: Double?

    @Flag(help: "Sleep between shakes, woken by the chip's INT pin (also `low-power = true` in the rules file).")
    var lowPower = false

    @Option(help: "Publish events and motion to this MQTT broker (mqtt://host:port or mqtts://host:port); overrides [mqtt] url in the rules file.")
    var mqtt: String?

    @Option(help: "Serve the web dashboard at this address, e.g. 127.0.0.1:8080 (off loopback it needs a token); overrides [http] listen in the rules file.")
    var http: String?

    @Option(help: "latitude,longitude[,height km]: the local field strength (World Magnetic Model) a magnetometer calibration from the dashboard is checked against, as `imu calibrate mag --location`.")
    var location: String?

    @Flag(help: "Remove this device from Home Assistant (empty retained discovery messages) and exit.")
    var mqttForget = false

    @OptionGroup var share: ShareOptions

    func validate() throws {
        try SampleRateOption.validate(rate, lowest: 10)
        if let location { _ = try LocationOption.parse(location) }
        if let mqtt, case .failure(let problem) = MQTTSettings.parseURL(mqtt) {
            throw ValidationError("--mqtt \(problem.reason), not \"\(mqtt)\"")
        }
        // A usage error like a bad --mqtt: exit 64 with the usage, before the IMU is opened.
        if let http, case .failure(let problem) = HTTPSettings.parseAddress(http) {
            throw ValidationError("--http \(problem.reason), not \"\(http)\"")
        }
    }

    func run() throws {
        StopSignal.install()
        StopSignal.installReload()
        var log = Logger(label: "imu") { JournalLogHandler(label: $0) }
        log.logLevel = .info
        // A refusal at start is one journal line at error priority, escaped like every other
        // (the message may quote the rules file).
        do {
            try serve(log: log)
        } catch {
            log.error("\(error)")
            throw ExitCode.failure
        }
    }

    var daemonSettings: Daemon.Settings {
        var settings = Daemon.Settings(rulesFile: rulesFile)
        settings.rateHz = rate
        settings.duration = duration
        settings.lowPower = lowPower
        settings.calibrateCommandOptions = source.calibrateCommandOptions
        // (validate() has checked --location.)
        settings.expectedFieldMicrotesla = try? LocationOption.expectedFieldMicrotesla(location)
        return settings
    }

    /// A save killed midway (power cut, kill -9) leaves `.NAME.PID.tmp` beside the calibration
    /// files it was replacing; the daemon's start removes those whose process is gone.
    func removeInterruptedSaves(log: Logger) {
        let calibration = CalibrationDirectory.forWriting(environment: ProcessInfo.processInfo.environment)
        for directory in [calibration, calibration + "/" + LearnedGyroOffsetsStore.subdirectory] {
            for path in AtomicFile.removeLeftovers(in: directory) {
                log.notice("removed \(path), left by a save that was interrupted")
            }
        }
    }

    func serve(log: Logger) throws {
        if mqttForget {
            // Only the topics are needed: no IMU is opened (it may be gone, or held by the daemon).
            let file = try readRulesFile()
            guard let mqttSettings = try CommandError.wrapping({ try MQTTSettings.resolve(rulesFile: file, url: mqtt) }) else {
                throw CommandError("--mqtt-forget needs --mqtt URL or an [mqtt] table in \(rulesFile ?? "the rules file (--config FILE)")")
            }
            do {
                try MQTTPublisher.forget(
                    settings: mqttSettings,
                    discovery: HomeAssistantDiscovery(settings: mqttSettings, model: "", softwareVersion: IMUVersion.current))
            } catch {
                throw CommandError("\(error)")
            }
            log.notice("removed \(mqttSettings.deviceID) from Home Assistant (discovery prefix \(mqttSettings.discoveryPrefix))")
            return
        }
        // Every front end's table checked (file:line) before the IMU is opened.
        let frontEnds = try self.frontEnds()
        removeInterruptedSaves(log: log)
        let device = try source.open()
        // A computer without a header imu can drive (a laptop with an IIO IMU, an unknown board)
        // still shares the IMU and runs command actions; only GPIO actions are refused.
        let gpio: HeaderGPIO
        do {
            gpio = try device.headerGPIO(catalog: Hardware.catalog())
        } catch {
            gpio = .absent(reason: error.description)
            log.notice("no GPIO header: \(error.description); rules with GPIO actions will be refused")
        }
        let daemon = try Daemon(settings: daemonSettings, device: device, gpio: gpio, log: log)
        daemon.shouldStop = { StopSignal.isRequested }
        daemon.takeReloadRequest = { StopSignal.takeReloadRequest() }
        daemon.frontEnds = frontEnds
        if rulesFile == nil {
            log.notice("no rules loaded: no --config given and no \(Self.installedRules); sharing the IMU only (write rules from Scripts/rules.example.toml and pass --config FILE)")
        }
        try daemon.run()
    }

    /// The rules file read once (nil without one), for every table the front ends take from it.
    func readRulesFile() throws -> ConfigurationFile? {
        try rulesFile.map { path in try CommandError.wrapping { try ConfigurationFile.read(path) } }
    }

    /// The front ends asked for, in the order they start: the dashboard and MQTT (required: a
    /// daemon that cannot serve them does not start), then the socket and D-Bus. Their tables come
    /// from one reading of the rules file.
    func frontEnds() throws -> [any FrontEnd] {
        var frontEnds: [any FrontEnd] = []
        let file = try readRulesFile()
        let http = try CommandError.wrapping { try HTTPSettings.resolve(rulesFile: file, listen: self.http) }
        if let http { frontEnds.append(DashboardFrontEnd(settings: http)) }
        if let settings = try CommandError.wrapping({ try MQTTSettings.resolve(rulesFile: file, url: mqtt) }) {
            frontEnds.append(MQTTFrontEnd(settings: settings, softwareVersion: IMUVersion.current, configurationURL: http?.reachableURL))
        }
        return frontEnds + (try share.frontEnds(config: file))
    }
}
