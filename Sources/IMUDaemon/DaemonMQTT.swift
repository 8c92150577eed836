import Foundation
import IMUEvents
import IMUWire
import IMUMQTT
import IMUMotion
import Logging

/// What `imu run` hands its MQTT front end: each event as `imu events --format jsonl` prints it,
/// device motion a few times per interval. Commands are answered by `MQTTCommands`, carried
/// out by the daemon (`Daemon`: reload; `DaemonGyroCalibration`: calibrate-gyro).
public final class DaemonMQTT: @unchecked Sendable {
    // @unchecked: `orientation` and `lastMotionTime` are only touched on the acquisition thread.
    public let publisher: MQTTPublisher
    private var orientation = DeviceOrientation.unknown
    private var lastMotionTime = -Double.infinity
    private let motionEvery: Double

    public init(settings: MQTTSettings, model: String, softwareVersion: String, configurationURL: String? = nil,
                commands: MQTTCommands, log: Logger) throws {
        let discovery = HomeAssistantDiscovery(
            settings: settings, model: model, softwareVersion: softwareVersion, configurationURL: configurationURL)
        motionEvery = min(0.25, Double(settings.motionIntervalMilliseconds) / 2000)
        publisher = try MQTTPublisher(
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
    }

    public func publish(_ event: MotionEvent) {
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
        publisher.publish(event: event.jsonLine, type: event.type, value: value, timestamp: WireNumber.text(event.timestamp, .timestamp))
    }

    /// Called with every device motion; formats one a few times per motion interval.
    public func update(_ motion: DeviceMotion) {
        guard motion.timestamp - lastMotionTime >= motionEvery else { return }
        lastMotionTime = motion.timestamp
        publisher.update(motion: Self.motionJSON(motion, orientation: orientation))
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

    public func stop() { publisher.stop(timeout: 2) }
}
