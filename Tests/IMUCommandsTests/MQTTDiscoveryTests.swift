import Foundation
import Testing

/// Home Assistant's discovery messages as a real broker holds them: one unique id per entity, the
/// origin block, enum sensors with their options, the diagnostic compass calibration, display
/// precision, expiry of motion values, the dashboard's address; and `--mqtt-forget` without an IMU.
extension MQTTTests {
    func object(_ payload: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any]
    }

    @Test func discoveryFollowsHomeAssistantsConventions() async throws {
        let port = try MosquittoBroker.freePort()
        try await withSetup("[http]\nlisten = \"127.0.0.1:\(port)\"") { setup in
            let run = try await imu("run", "--config", setup.rules, "--sim", "still", "--virtual-time", "--duration", "2", within: 60)
            try #require(run.succeeded, "\(run)")
            #expect(await setup.subscriber.wait(within: 10) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "offline" } })
            let configs = setup.subscriber.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }
            try #require(configs.count == 14, "\(configs.map(\.topic))")
            var ids: [String] = []
            for config in configs {
                let payload = try #require(object(config.payload), "\(config.topic)")
                let origin = payload["o"] as? [String: Any]
                #expect(origin?["name"] as? String == "imu" && origin?["sw"] is String, "\(config.topic): \(config.payload)")
                let device = payload["device"] as? [String: Any]
                #expect(device?["configuration_url"] as? String == "http://127.0.0.1:\(port)/", "\(config.topic)")
                if let id = payload["unique_id"] as? String { ids.append(id) }
            }
            // 3 event entities and 6 sensors, each its own id (device triggers have none).
            #expect(ids.count == 9 && Set(ids).count == 9, "\(ids.sorted())")

            func sensor(_ key: String) throws -> [String: Any] {
                let config = try #require(configs.first { $0.topic == "homeassistant/sensor/twin/\(key)/config" })
                return try #require(object(config.payload))
            }
            let orientations = ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight", "faceUp", "faceDown"]
            let orientation = try sensor("orientation")
            #expect(orientation["device_class"] as? String == "enum" && orientation["options"] as? [String] == orientations, "\(orientation)")
            #expect(orientation["unique_id"] as? String == "imu_twin_orientation_sensor")
            let compass = try sensor("mag_accuracy")
            #expect(compass["device_class"] as? String == "enum" && compass["entity_category"] as? String == "diagnostic", "\(compass)")
            #expect(compass["options"] as? [String] == ["uncalibrated", "low", "medium", "high"], "\(compass)")
            for key in ["roll_deg", "pitch_deg", "yaw_deg", "heading_deg"] {
                let angle = try sensor(key)
                #expect(angle["suggested_display_precision"] as? Int == 1 && angle["unit_of_measurement"] as? String == "°", "\(angle)")
                #expect(angle["device_class"] == nil && angle["entity_category"] == nil)
            }
            for key in ["roll_deg", "pitch_deg", "yaw_deg", "heading_deg", "orientation", "mag_accuracy"] {
                // The default motion interval is 1 s: five intervals, at least 10 s.
                #expect(try sensor(key)["expire_after"] as? Int == 10, "\(key)")
            }
            // The motion topic's orientation is one of the options or null, never "unknown".
            for message in setup.subscriber.messages where message.topic == "imu/twin/motion" {
                let value = object(message.payload)?["orientation"]
                #expect(value is NSNull || (value as? String).map(orientations.contains) == true, "\(message.payload)")
            }
        }
    }

    /// `--mqtt-forget` needs only the broker and the device id: no IMU is opened (none here).
    @Test func forgetWorksWithoutTheIMU() async throws {
        try await withSetup { setup in
            let run = try await imu("run", "--config", setup.rules, "--sim", "still", "--virtual-time", "--duration", "1", within: 60)
            try #require(run.succeeded, "\(run)")
            let forget = try await imu("run", "--config", setup.rules, "--mqtt-forget", within: 30)
            #expect(forget.succeeded, "\(forget)")
            let after = try MQTTSubscriber(port: setup.broker.port, topic: "homeassistant/#")
            defer { after.stop() }
            var probed = false
            for _ in 0..<50 where !probed {
                try await publish(setup.broker, topic: "homeassistant/probe", "probe")
                probed = await after.wait(within: 0.2) { $0.contains { $0.topic == "homeassistant/probe" } }
            }
            #expect(probed)
            #expect(after.messages.filter { !$0.payload.isEmpty && $0.topic != "homeassistant/probe" }.isEmpty, "\(after.messages)")
        }
    }
}

/// Every discovery message checked by Home Assistant's own schemas (`Scripts/check-ha-discovery.py`
/// with the `homeassistant` package, 2024.1 series on Python 3.11). Runs when `IMU_HA_PYTHON`
/// names a Python that has it, e.g. `python3.11 -m venv /opt/ha && /opt/ha/bin/pip install
/// homeassistant==2024.1.6`, then `IMU_HA_PYTHON=/opt/ha/bin/python swift test --filter HomeAssistantSchema`.
@Suite(.enabled(if: MosquittoBroker.available && ProcessInfo.processInfo.environment["IMU_HA_PYTHON"] != nil,
                "IMU_HA_PYTHON (a Python with the homeassistant package) is not set"))
struct HomeAssistantSchemaTests {
    @Test func everyDiscoveryMessagePassesHomeAssistantsSchemas() async throws {
        let tests = MQTTTests()
        let port = try MosquittoBroker.freePort()
        try await tests.withSetup("[http]\nlisten = \"127.0.0.1:\(port)\"") { setup in
            let run = try await imu("run", "--config", setup.rules, "--sim", "still", "--virtual-time", "--duration", "1", within: 60)
            try #require(run.succeeded, "\(run)")
            #expect(await setup.subscriber.wait(within: 10) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "offline" } })
            let lines = setup.subscriber.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }
                .map { "\($0.topic)\t\($0.payload)\n" }.joined()
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Scripts/check-ha-discovery.py").path
            let check = Process()
            check.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.environment["IMU_HA_PYTHON"]!)
            check.arguments = [script]
            let input = Pipe(), output = Pipe()
            check.standardInput = input
            check.standardOutput = output
            check.standardError = output
            try check.run()
            input.fileHandleForWriting.write(Data(lines.utf8))
            try input.fileHandleForWriting.close()
            let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            check.waitUntilExit()
            #expect(check.terminationStatus == 0, "\(report)")
            #expect(report.contains("14 config messages, 0 invalid"), "\(report)")
        }
    }
}
