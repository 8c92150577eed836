import Foundation
import IMUCalibration
import IMUEngine
import IMUEvents
import IMUFrontEnd
import IMUMotion
import IMUWire

/// MQTT (and Home Assistant's discovery) as one of the daemon's front ends: each event as
/// `imu events --format jsonl` prints it, device motion a few times per interval, availability,
/// and — with `allow-commands` — the commands `MQTTCommands` answers: `reload` through the
/// daemon's reload request, `calibrate-gyro` measured here from the engine's raw samples.
public final class MQTTFrontEnd: FrontEnd, @unchecked Sendable {
    // @unchecked: `orientation` and `lastMotionTime` are only touched on the acquisition thread;
    // the rest is set in `start` and read in `stop`, on the daemon's thread.
    public let name = "MQTT"
    /// Asked for by name (`[mqtt]`, `--mqtt`): settings the broker's client refuses stop the start.
    public var isRequired: Bool { true }
    public let settings: MQTTSettings
    let softwareVersion: String
    let configurationURL: String?
    public private(set) var publisher: MQTTPublisher?
    private var engine: MotionEngine?
    private var observers: [Int] = []
    private var orientation = DeviceOrientation.unknown
    private var lastMotionTime = -Double.infinity
    private let motionEvery: Double

    /// `configurationURL`: the dashboard's address, shown on Home Assistant's device page.
    public init(settings: MQTTSettings, softwareVersion: String, configurationURL: String? = nil) {
        self.settings = settings
        self.softwareVersion = softwareVersion
        self.configurationURL = configurationURL
        motionEvery = min(0.25, Double(settings.motionIntervalMilliseconds) / 2000)
    }

    public func start(_ context: FrontEndContext) throws {
        let log = context.log
        let commands = MQTTCommands(reload: context.reload)
        let discovery = HomeAssistantDiscovery(
            settings: settings, model: context.deviceSummary, softwareVersion: softwareVersion, configurationURL: configurationURL)
        let publisher = try MQTTPublisher(
            settings: settings, discovery: discovery,
            log: { level, message in
                switch level {
                case .info: log.info("\(message)")
                case .warning: log.warning("\(message)")
                case .error: log.error("\(message)")
                }
            },
            onCommand: { json in commands.answer(json) })
        try publisher.start()
        self.publisher = publisher
        let engine = context.engine
        self.engine = engine
        observers.append(engine.observe([.motion, .events]) { [self] output in
            switch output {
            case .event(let event): publish(event)
            case .motion(let motion): update(motion)
            default: break
            }
        })
        if settings.allowCommands, let chip = context.calibration.chip {
            observers.append(Self.observeGyroCalibration(commands, chip: chip, context: context))
        }
    }

    public func stop() {
        for key in observers { engine?.removeObserver(key) }
        observers = []
        publisher?.stop(timeout: 2)
    }

    /// `{"command": "calibrate-gyro"}`: raw samples feed the measurement once asked; a measured
    /// bias is applied from the next sample (and stored where `imu calibrate gyro` stores it).
    static func observeGyroCalibration(_ commands: MQTTCommands, chip: ChipIdentity, context: FrontEndContext) -> Int {
        var gyro = DaemonGyroCalibration(requests: commands.calibrateGyro, chip: chip, directory: context.calibration.directory)
        let calibration = context.calibration, log = context.log
        return context.engine.observe([.samples]) { output in
            guard case .sample(let raw) = output else { return }
            // Merged into the calibration in force now (the dashboard or a socket client's
            // reload may have changed it since the start).
            if let file = gyro.feed(raw, current: calibration.current(), log: { log.notice("\($0)") }) {
                calibration.apply(file)
            }
        }
    }

    func publish(_ event: MotionEvent) {
        let value: String?
        switch event {
        case .shake(.began): value = "began"
        case .shake(.ended): value = "ended"
        case .shake(.cancelled): value = "cancelled"
        case .slap(let slap): value = slap.direction.rawValue
        case .orientation(let o, _):
            orientation = o
            value = o.rawValue
        case .heading: value = nil
        }
        publisher?.publish(event: event.jsonLine, type: event.type, value: value, timestamp: WireNumber.text(event.timestamp, .timestamp))
    }

    /// Called with every device motion; formats one a few times per motion interval.
    func update(_ motion: DeviceMotion) {
        guard motion.timestamp - lastMotionTime >= motionEvery else { return }
        lastMotionTime = motion.timestamp
        publisher?.update(motion: Self.motionJSON(motion, orientation: orientation))
    }

    /// The motion topic's JSON: Euler angles and heading in degrees, the orientation (null
    /// before the first one: Home Assistant's "unknown", not a state named so) and the
    /// compass calibration (null without a magnetometer).
    static func motionJSON(_ motion: DeviceMotion, orientation: DeviceOrientation) -> String {
        let euler = motion.attitude.quaternion.eulerAngles
        let degrees = 180 / Double.pi
        var line = JSONLine(capacity: 160)
        line.number("t", motion.timestamp, .timestamp)
        line.number("roll_deg", euler.roll * degrees, .angleDegrees)
        line.number("pitch_deg", euler.pitch * degrees, .angleDegrees)
        line.number("yaw_deg", euler.yaw * degrees, .angleDegrees)
        line.number("heading_deg", motion.heading.map(OutputLines.shownHeading), .headingDegrees)
        line.string("orientation", orientation == .unknown ? nil : orientation.rawValue)
        line.string("mag_accuracy", motion.magneticField.map { "\($0.accuracy)" })
        return line.line
    }
}
