import Foundation
import IMUFrontEnd

/// The commands `imu/<device-id>/command` takes when `allow-commands = true`, each answered
/// with one JSON object on `imu/<device-id>/command/result`:
///
/// - `{"command": "reload"}`: the rules file is read again (as on SIGHUP);
///   `{"command":"reload","result":"reloaded","rules":3}` or `{"command":"reload","error":"…"}`.
/// - `{"command": "calibrate-gyro"}`: the gyro bias is measured over the next few seconds of
///   samples (the device must rest), then applied and stored as `imu calibrate gyro` does;
///   `{"command":"calibrate-gyro","result":"calibrated","bias_deg_s":[x,y,z],"samples":300,…}`
///   or `{"command":"calibrate-gyro","error":"not still: …","reason":"not still"}`.
///
/// The daemon carries them out on its own loop (`reload` and `calibrateGyro` are polled there);
/// `answer` runs on the MQTT front end's command thread and waits for the outcome.
public final class MQTTCommands: Sendable {
    /// The daemon's reload request (the context's: SIGHUP's and every front end's reload are one).
    public let reload: DaemonRequest<ReloadOutcome>
    public let calibrateGyro = DaemonRequest<GyroCalibrationOutcome>()
    /// How long a reload may take before the answer says the daemon did not get to it.
    public let reloadTimeout: Double
    /// How long a gyro measurement may take (its window is a few seconds of samples).
    public let calibrationTimeout: Double

    public static let known = ["reload", "calibrate-gyro"]
    /// Longer messages are refused unread.
    static let maximumBytes = 4096

    public init(reload: DaemonRequest<ReloadOutcome> = DaemonRequest(), reloadTimeout: Double = 5, calibrationTimeout: Double = 15) {
        self.reload = reload
        self.reloadTimeout = reloadTimeout
        self.calibrationTimeout = calibrationTimeout
    }

    /// The result's JSON for a command's JSON.
    public func answer(_ json: String) -> String {
        let command: String
        switch Self.parse(json) {
        case .problem(let problem): return JSON.object([("error", JSON.string(problem))])
        case .command(let name): command = name
        }
        switch command {
        case "reload":
            guard let outcome = reload.ask(timeout: reloadTimeout) else {
                return Self.object("reload", [("error", JSON.string("the daemon did not get to it within \(Int(reloadTimeout)) s"))])
            }
            return Self.object("reload", outcome.fields)
        case "calibrate-gyro":
            guard let outcome = calibrateGyro.ask(timeout: calibrationTimeout) else {
                return Self.object("calibrate-gyro", [
                    ("error", JSON.string(
                        "no measurement within \(Int(calibrationTimeout)) s: the daemon's samples did not come "
                            + "(in low-power mode the IMU sleeps while still; use `imu calibrate gyro` there)")),
                    ("reason", JSON.string("no samples")),
                ])
            }
            return Self.object("calibrate-gyro", outcome.fields)
        default:
            let shown = command.count > 40 ? String(command.prefix(40)) + "…" : command
            let known = Self.known.map { "\"\($0)\"" }.joined(separator: ", ")
            return Self.object(shown, [("error", JSON.string("unknown command; known: \(known)"))])
        }
    }

    enum Parsed: Equatable {
        case command(String)
        /// What is wrong with the message.
        case problem(String)
    }

    static func parse(_ json: String) -> Parsed {
        let expected = #"expected a JSON object like {"command": "reload"}"#
        guard json.utf8.count <= maximumBytes else { return .problem("\(expected); the message is over \(maximumBytes) bytes") }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            return .problem(expected)
        }
        guard let command = object["command"] as? String else { return .problem("\(expected); \"command\" is missing or not a string") }
        return .command(command)
    }

    /// A refusal's answer: `{"command":…,"error":…,"reason":…}` (no command when unknown).
    static func refusal(_ reason: CommandRefusal, command: String? = nil, detail: String) -> String {
        let named = command.map { [("command", JSON.string($0))] } ?? []
        return JSON.object(named + [("error", JSON.string(detail)), ("reason", JSON.string(reason.rawValue))])
    }

    /// The command a message names, if it is a small JSON object with one (for answers).
    static func commandName(_ json: String) -> String? {
        guard case .command(let name) = parse(json) else { return nil }
        return name.count > 40 ? String(name.prefix(40)) + "…" : name
    }

    static func object(_ command: String, _ fields: [(String, String)]) -> String {
        JSON.object([("command", JSON.string(command))] + fields)
    }
}

/// Why a command message was not carried out, in the words of the answer's `reason`.
public enum CommandRefusal: String, Sendable, CaseIterable {
    /// Published with the retain flag: it would run again at every start.
    case retained
    /// Over `MQTTCommands.maximumBytes`: refused before it is copied.
    case tooLarge = "too large"
    /// The queue of commands waiting for the daemon is full.
    case busy
    /// The daemon stopped before getting to it.
    case stopping

    /// For the log: "3 retained (ignored and cleared)".
    var explanation: String {
        switch self {
        case .retained: "retained (ignored and cleared: commands are published without the retain flag)"
        case .tooLarge: "too large (over \(MQTTCommands.maximumBytes) bytes)"
        case .busy: "busy (\(MQTTPublisher.commandQueueLimit) commands already waiting)"
        case .stopping: "not carried out (the daemon stopped)"
        }
    }
}

extension ReloadOutcome {
    var fields: [(String, String)] {
        switch self {
        case .reloaded(let rules): [("result", JSON.string("reloaded")), ("rules", "\(rules)")]
        case .refused(let reason): [("error", JSON.string(reason))]
        }
    }
}

/// How a gyro calibration asked for over MQTT went.
public enum GyroCalibrationOutcome: Sendable, Equatable {
    case measured(GyroBiasMeasured)
    case refused(GyroCalibrationRefusal, detail: String)

    var fields: [(String, String)] {
        switch self {
        case .measured(let m):
            var fields = [
                ("result", JSON.string("calibrated")),
                ("bias_deg_s", JSON.array([m.biasDegreesPerSecond.x, m.biasDegreesPerSecond.y, m.biasDegreesPerSecond.z]
                    .map { JSON.number($0, .bias) })),
                ("samples", "\(m.sampleCount)"),
                ("duration_s", JSON.number(m.durationSeconds, .durationSeconds)),
            ]
            if let t = m.temperatureCelsius { fields.append(("temperature_celsius", JSON.number(t, .temperatureCelsius))) }
            fields.append(("applied", "true"))
            fields.append(("saved", m.savedTo.map(JSON.string) ?? "null"))
            if let error = m.saveError { fields.append(("save_error", JSON.string(error))) }
            return fields
        case .refused(let reason, let detail):
            return [("error", JSON.string("\(reason.rawValue): \(detail)")), ("reason", JSON.string(reason.rawValue))]
        }
    }
}

/// Why no gyro bias was measured, in the words of the result's `reason`.
public enum GyroCalibrationRefusal: String, Sendable, Equatable {
    /// The device moved (or turned steadily) during the window.
    case notStill = "not still"
    /// Too few samples or too short a window.
    case notEnoughSamples = "not enough samples"
}

/// A gyro bias measured by the daemon, and where it was stored.
public struct GyroBiasMeasured: Sendable, Equatable {
    public var biasDegreesPerSecond: (x: Double, y: Double, z: Double)
    public var sampleCount: Int
    public var durationSeconds: Double
    public var temperatureCelsius: Double?
    /// The calibration file written; nil when it could not be (`saveError` says why: the bias
    /// is applied all the same, until the daemon stops).
    public var savedTo: String?
    public var saveError: String?

    public init(
        biasDegreesPerSecond: (x: Double, y: Double, z: Double), sampleCount: Int, durationSeconds: Double,
        temperatureCelsius: Double? = nil, savedTo: String? = nil, saveError: String? = nil
    ) {
        self.biasDegreesPerSecond = biasDegreesPerSecond
        self.sampleCount = sampleCount
        self.durationSeconds = durationSeconds
        self.temperatureCelsius = temperatureCelsius
        self.savedTo = savedTo
        self.saveError = saveError
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.biasDegreesPerSecond == b.biasDegreesPerSecond && a.sampleCount == b.sampleCount && a.durationSeconds == b.durationSeconds
            && a.temperatureCelsius == b.temperatureCelsius && a.savedTo == b.savedTo && a.saveError == b.saveError
    }
}
