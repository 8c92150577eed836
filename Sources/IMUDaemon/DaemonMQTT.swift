import Foundation
import IMUEvents
import IMUFormats
import IMUMQTT
import IMUMotion
import Logging

/// What `imu run` hands its MQTT front end: each event as `imu events --format jsonl` prints it,
/// device motion a few times per interval, and the answers to commands.
final class DaemonMQTT: @unchecked Sendable {
    // @unchecked: `orientation` and `lastMotionTime` are only touched on the acquisition thread.
    let publisher: MQTTPublisher
    private var orientation = DeviceOrientation.unknown
    private var lastMotionTime = -Double.infinity
    private let motionEvery: Double
    private let reload: ReloadRequests

    init(settings: MQTTSettings, model: String, softwareVersion: String, reload: ReloadRequests, log: Logger) throws {
        let discovery = HomeAssistantDiscovery(settings: settings, model: model, softwareVersion: softwareVersion)
        self.reload = reload
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
            onCommand: { [reload] json in DaemonMQTT.answer(json, reload: reload) })
        try publisher.start()
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
        publisher.publish(event: event.jsonLine, type: event.type, value: value, timestamp: number(event.timestamp, 6))
    }

    /// Called with every device motion; formats one a few times per motion interval.
    func update(_ motion: DeviceMotion) {
        guard motion.timestamp - lastMotionTime >= motionEvery else { return }
        lastMotionTime = motion.timestamp
        let euler = motion.attitude.quaternion.eulerAngles
        let degrees = 180 / Double.pi
        let heading = motion.heading.map { number($0 >= 359.995 ? 0 : $0, 2) } ?? "null"
        let accuracy = motion.magneticField.map { "\"\($0.accuracy)\"" } ?? "null"
        publisher.update(motion: """
            {"t":\(number(motion.timestamp, 6)),"roll_deg":\(number(euler.roll * degrees, 2)),"pitch_deg":\(number(euler.pitch * degrees, 2)),\
            "yaw_deg":\(number(euler.yaw * degrees, 2)),"heading_deg":\(heading),"orientation":"\(orientation.rawValue)",\
            "mag_accuracy":\(accuracy)}
            """)
    }

    func stop() { publisher.stop(timeout: 2) }

    /// `{"command": "reload"}` → the rules are reloaded at the next batch and the outcome told.
    static func answer(_ json: String, reload: ReloadRequests) -> String {
        guard let data = json.data(using: .utf8), data.count <= 4096,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let command = object["command"] as? String
        else {
            return #"{"error":"expected {\"command\": \"reload\"}"}"#
        }
        switch command {
        case "reload":
            let outcome = reload.request(timeout: 5)
            return #"{"command":"reload",\#(outcome)}"#
        default:
            let known = #"\"reload\""#
            let shown = command.count > 40 ? String(command.prefix(40)) + "…" : command
            let escaped = shown.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : $0.value < 0x20 ? " " : String($0) }.joined()
            return #"{"command":"\#(escaped)","error":"unknown command; known: \#(known)"}"#
        }
    }
}

/// Reloads asked for from another thread (MQTT), carried out by the daemon's loop between batches.
final class ReloadRequests: @unchecked Sendable {
    private let condition = NSCondition()
    private var asked = false
    private var generation = 0
    private var lastOutcome = ""

    /// Asks for a reload and waits for its outcome (a JSON fragment), at most `timeout` seconds.
    func request(timeout: Double) -> String {
        condition.lock()
        defer { condition.unlock() }
        asked = true
        let before = generation
        let deadline = Date().addingTimeInterval(timeout)
        while generation == before && Date() < deadline { _ = condition.wait(until: deadline) }
        return generation == before ? #""error":"the daemon did not get to it in time""# : lastOutcome
    }

    /// True once per request; the daemon then reloads and calls `done`.
    func take() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let was = asked
        asked = false
        return was
    }

    func done(rules: Int?, error: String?) {
        condition.lock()
        lastOutcome = error.map { #""error":"\#($0.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\n", with: " "))""# }
            ?? #""result":"reloaded","rules":\#(rules ?? 0)"#
        generation += 1
        condition.broadcast()
        condition.unlock()
    }
}
