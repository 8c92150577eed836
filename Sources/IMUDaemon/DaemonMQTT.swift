import Foundation
import IMUEvents
import IMUFormats
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
        publisher.publish(event: event.jsonLine, type: event.type, value: value, timestamp: number(event.timestamp, 6))
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
        let heading = motion.heading.map { number($0 >= 359.995 ? 0 : $0, 2) } ?? "null"
        let accuracy = motion.magneticField.map { "\"\($0.accuracy)\"" } ?? "null"
        let orientation = orientation == .unknown ? "null" : "\"\(orientation.rawValue)\""
        return """
            {"t":\(number(motion.timestamp, 6)),"roll_deg":\(number(euler.roll * degrees, 2)),"pitch_deg":\(number(euler.pitch * degrees, 2)),\
            "yaw_deg":\(number(euler.yaw * degrees, 2)),"heading_deg":\(heading),"orientation":\(orientation),\
            "mag_accuracy":\(accuracy)}
            """
    }

    public func stop() { publisher.stop(timeout: 2) }
}
