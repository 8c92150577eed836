import Foundation
import Testing

/// `imu/<device-id>/command` end to end: a real broker, `mosquitto_pub` asking, `mosquitto_sub`
/// reading the answers on `imu/<device-id>/command/result`.
extension MQTTTests {
    /// The daemon's answers so far, as JSON objects.
    func results(_ subscriber: MQTTSubscriber) -> [[String: Any]] {
        subscriber.messages.filter { $0.topic == "imu/twin/command/result" }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any]
        }
    }

    /// Starts `imu run` on `scenario` and waits until its command subscription is surely in
    /// place: the broker handles a connection's packets in order, and the daemon subscribes
    /// before it sends discovery, so all 14 configs seen means subscribed.
    func daemonListening(_ setup: Setup, scenario: String, environment: [String: String]) async throws -> IMUProcess {
        let daemon = try IMUProcess(["run", "--config", setup.rules, "--sim", scenario], environment: environment)
        let ready = await setup.subscriber.wait(within: 60) {
            $0.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }.count >= 14
        }
        try #require(ready, "the daemon's discovery never came")
        return daemon
    }

    @Test func calibrateGyroMeasuresAppliesAndStoresTheBias() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-calibration-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["IMU_CALIBRATION_DIR": directory]
        try await withSetup("allow-commands = true") { setup in
            let daemon = try await daemonListening(setup, scenario: "still", environment: environment)
            try await publish(setup.broker, topic: "imu/twin/command", #"{"command": "calibrate-gyro"}"#)
            #expect(await setup.subscriber.wait(within: 60) { _ in !results(setup.subscriber).isEmpty })
            daemon.send(SIGTERM)
            let run = try await daemon.finish(within: 30)
            #expect(run.succeeded, "\(run)")
            let answer = try #require(results(setup.subscriber).first)
            #expect(answer["command"] as? String == "calibrate-gyro" && answer["result"] as? String == "calibrated", "\(answer)")
            // The window closes on the first sample 3 s after its first (about 300 at 100 Hz; the
            // twin's real-time timestamps jitter, and a loaded machine may let the FIFO overflow).
            let samples = try #require(answer["samples"] as? Int, "\(answer)")
            let duration = try #require(answer["duration_s"] as? Double, "\(answer)")
            #expect(duration >= 3 && samples >= 50, "\(answer)")
            #expect(run.stderr.contains("from \(samples) samples; saved to "), "\(run.stderr)")
            #expect(answer["applied"] as? Bool == true)
            let saved = try #require(answer["saved"] as? String, "\(answer)")
            #expect(saved == directory + "/lsm9ds1-sim-0x6a.toml" && FileManager.default.fileExists(atPath: saved))

            // The same twin measured by `imu calibrate gyro`: the same bias, to within the noise of
            // two 3 s means (the LSM9DS1 twin's ≈ 0.1 °/s RMS gives ≈ 0.006 °/s per mean).
            let reference = try await imu("calibrate", "gyro", "--sim", "--virtual-time", "--json", "--no-save", environment: environment)
            try #require(reference.succeeded, "\(reference)")
            let referenceLine = try #require(reference.stdout.split(separator: "\n").last.map(String.init))
            let radians = try #require((try JSONSerialization.jsonObject(with: Data(referenceLine.utf8)) as? [String: Any])?["bias_rad_s"] as? [Double])
            let degrees = try #require(answer["bias_deg_s"] as? [Double])
            #expect(degrees.count == 3 && degrees.contains { abs($0) > 0.5 }, "\(degrees)")  // the typical twin: a few °/s
            for axis in 0..<3 { #expect(abs(degrees[axis] - radians[axis] * 180 / .pi) < 0.05, "axis \(axis): \(degrees) vs \(radians)") }
        }
    }

    /// Refused while moving; reload and an unknown command answered too, in the order asked.
    @Test func calibrateGyroWhileMovingIsRefusedAsNotStill() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-calibration-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await withSetup("allow-commands = true") { setup in
            let daemon = try await daemonListening(setup, scenario: "walk", environment: ["IMU_CALIBRATION_DIR": directory])
            try await publish(setup.broker, topic: "imu/twin/command", #"{"command":"calibrate-gyro"}"#)
            try await publish(setup.broker, topic: "imu/twin/command", #"{"command":"reload"}"#)
            try await publish(setup.broker, topic: "imu/twin/command", #"{"command":"reboot"}"#)
            #expect(await setup.subscriber.wait(within: 60) { _ in results(setup.subscriber).count >= 3 })
            daemon.send(SIGTERM)
            _ = try await daemon.finish(within: 30)
            let answers = results(setup.subscriber)
            try #require(answers.count == 3, "\(answers)")
            let refused = answers[0]
            #expect(refused["reason"] as? String == "not still", "\(refused)")
            #expect((refused["error"] as? String)?.hasPrefix("not still: moved during the window") == true, "\(refused)")
            #expect(refused["result"] == nil && refused["saved"] == nil)
            #expect(answers[1]["command"] as? String == "reload" && answers[1]["result"] as? String == "reloaded" && answers[1]["rules"] as? Int == 1, "\(answers[1])")
            #expect(answers[2]["error"] as? String == #"unknown command; known: "reload", "calibrate-gyro""#)
            #expect(!FileManager.default.fileExists(atPath: directory))
        }
    }
}
