import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu run` publishing to a real broker (Debian's mosquitto) read by an independent subscriber
/// (mosquitto_sub): discovery, availability, events with `imu events`' content, motion at its
/// interval, and nothing lost when the broker goes away or stops answering.
@Suite(.enabled(if: MosquittoBroker.available, "mosquitto and mosquitto-clients are not installed"), .serialized)
struct MQTTTests {
    func rulesFile(_ mqtt: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-rules-\(UUID()).toml").path
        try """
            [[rule]]
            name = "relay on shake"
            on = "shake"
              [[rule.action]]
              gpio-pin = 11
              set = "toggle"

            [mqtt]
            \(mqtt)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A broker, a subscriber that has surely subscribed, and a rules file (a relay on shake)
    /// whose `[mqtt]` table names the broker, device id "twin", and `mqtt`'s lines; all gone after.
    struct Setup {
        var broker: MosquittoBroker
        var subscriber: MQTTSubscriber
        var rules: String
    }

    func withSetup(_ mqtt: String = "", _ body: (Setup) async throws -> Void) async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let subscriber = try await subscriber(broker)
        defer { subscriber.stop() }
        let rules = try rulesFile("url = \"mqtt://127.0.0.1:\(broker.port)\"\ndevice-id = \"twin\"\n\(mqtt)")
        defer { try? FileManager.default.removeItem(atPath: rules) }
        try await body(Setup(broker: broker, subscriber: subscriber, rules: rules))
    }

    /// `mosquitto_pub`: one message, QoS 1.
    func publish(_ broker: MosquittoBroker, topic: String, _ message: String, extra: [String] = []) async throws {
        let pub = Process()
        pub.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
        pub.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", topic, "-m", message] + extra
        try pub.run()
        while pub.isRunning { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// A subscriber that has seen a probe message, so it is surely subscribed. `extra`: the
    /// clients' TLS and login options.
    /// `session`: the subscriber's own options (a client id and persistent session).
    func subscriber(_ broker: MosquittoBroker, extra: [String] = [], session: [String] = []) async throws -> MQTTSubscriber {
        let subscriber = try MQTTSubscriber(port: broker.port, extra: extra + session)
        let probe = UUID().uuidString
        for _ in 0..<50 {
            try await publish(broker, topic: "probe", probe, extra: extra)
            if await subscriber.wait(within: 0.2, until: { $0.contains { $0.payload == probe } }) { return subscriber }
        }
        // Its reader thread keeps it alive until the process ends: stop it, not just drop it.
        subscriber.stop()
        throw MosquittoBroker.Failure("the subscriber never saw its probe")
    }

    func shakeLines(_ messages: [MQTTSubscriber.Message], device: String) -> [String] {
        messages.filter { $0.topic == "imu/\(device)/event" && $0.payload.contains(#""type":"shake""#) }.map(\.payload)
    }

    @Test func discoveryAvailabilityAndEventsAsImuEventsPrintsThem() async throws {
        try await withSetup { setup in
            let (broker, subscriber, rules) = (setup.broker, setup.subscriber, setup.rules)

            let run = try await imu("run", "--config", rules, "--sim", "shake", "--virtual-time", "--duration", "8", within: 60)
            try #require(run.succeeded, "\(run)")
            let events = try await imu("events", "--sim", "shake", "--virtual-time", "--duration", "8", "--format", "jsonl", within: 60)
            try #require(events.succeeded, "\(events)")
            let expected = events.stdout.split(separator: "\n").map(String.init).filter { $0.contains(#""type":"shake""#) }
            #expect(expected.count == 4, "\(events.stdout)")

            #expect(await subscriber.wait(within: 10) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "offline" } })
            let messages = subscriber.messages
            #expect(shakeLines(messages, device: "twin") == expected)
            // Availability: online first, offline when it stopped.
            let availability = messages.filter { $0.topic == "imu/twin/availability" }.map(\.payload)
            #expect(availability == ["online", "offline"], "\(availability)")
            // Discovery: 14 retained configs, each JSON with the device block.
            let configs = messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }
            #expect(configs.count == 14, "\(configs.map(\.topic))")
            for config in configs {
                let object = try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any]
                let device = object?["device"] as? [String: Any]
                #expect(device?["identifiers"] as? [String] == ["imu_twin"], "\(config.topic)")
                #expect((device?["model"] as? String)?.contains("on sim") == true)
            }
            // Home Assistant's event entity reads {"event_type": …} on the per-type topic.
            let entity = messages.filter { $0.topic == "imu/twin/event/shake" }.map(\.payload)
            #expect(entity.count == 4 && entity.first?.hasPrefix(#"{"event_type":"began""#) == true, "\(entity)")

            // Discovery configs are retained: a late subscriber still gets them.
            let late = try MQTTSubscriber(port: broker.port, topic: "homeassistant/#")
            defer { late.stop() }
            #expect(await late.wait(within: 10) { $0.filter(\.retained).count == 14 })

            // --mqtt-forget empties them.
            let forget = try await imu("run", "--config", rules, "--sim", "--virtual-time", "--mqtt-forget", within: 30)
            #expect(forget.succeeded, "\(forget)")
            let after = try MQTTSubscriber(port: broker.port, topic: "homeassistant/#")
            defer { after.stop() }
            // Retained messages come on subscribing, before anything published after: once a
            // probe is in, every retained config still there would be too.
            var probed = false
            for _ in 0..<50 where !probed {
                try await publish(broker, topic: "homeassistant/probe", "probe")
                probed = await after.wait(within: 0.2) { $0.contains { $0.topic == "homeassistant/probe" } }
            }
            #expect(probed)
            #expect(after.messages.filter { !$0.payload.isEmpty && $0.topic != "homeassistant/probe" }.isEmpty, "\(after.messages)")
        }
    }

    @Test func motionComesAtItsInterval() async throws {
        try await withSetup("motion-interval-ms = 500") { setup in
            let (subscriber, rules) = (setup.subscriber, setup.rules)
            let run = try await imu("run", "--config", rules, "--sim", "still", "--duration", "4", within: 60)
            try #require(run.succeeded, "\(run)")
            let motion = subscriber.messages.filter { $0.topic == "imu/twin/motion" }
            // 4 s at one per 0.5 s, less the filter's warm-up and the connection's first moments.
            #expect((4...9).contains(motion.count), "\(motion.count) motion messages")
            let last = try #require(motion.last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(last.payload.utf8)) as? [String: Any])
            for key in ["t", "roll_deg", "pitch_deg", "yaw_deg", "heading_deg", "orientation", "mag_accuracy"] {
                #expect(object.keys.contains(key), "\(key) missing in \(last.payload)")
            }
            // Before the first orientation it is null (Home Assistant's unknown), never "unknown".
            #expect(object["orientation"] as? String == "faceUp" || object["orientation"] is NSNull, "\(last.payload)")
            #expect(abs(object["roll_deg"] as? Double ?? 99) < 5 && abs(object["pitch_deg"] as? Double ?? 99) < 5, "\(last.payload)")
        }
    }

    /// The broker killed mid-run and started again: every shake event arrives, in order, and the
    /// daemon's last will says `offline` when the daemon itself is killed.
    @Test func aBrokerRestartLosesNoEvents() async throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let first = try await subscriber(broker)
        let rules = try rulesFile("url = \"mqtt://127.0.0.1:\(broker.port)\"\ndevice-id = \"twin\"")
        defer { try? FileManager.default.removeItem(atPath: rules) }
        // Shakes end at about 2.3, 6.3 and 10.3 s; the broker is away from 3 to 5 s.
        let daemon = try IMUProcess(["run", "--config", rules, "--sim", "shake", "--duration", "12"])
        #expect(await first.wait(within: 20) { shakeLines($0, device: "twin").count >= 2 })
        broker.kill()
        first.stop()
        try await Task.sleep(for: .milliseconds(1500))
        try broker.start()
        let second = try await subscriber(broker)
        defer { second.stop() }
        let result = try await daemon.finish(within: 60)
        #expect(result.succeeded, "\(result)")
        _ = await second.wait(within: 10) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "offline" } }
        let received = shakeLines(first.messages, device: "twin") + shakeLines(second.messages, device: "twin")
        // In order, duplicates (QoS 1 resends of what was in flight) allowed, none missing.
        var unique: [String] = []
        for line in received where unique.last != line { if !unique.contains(line) { unique.append(line) } }
        let phases = unique.map { $0.contains("began") ? "began" : $0.contains("ended") ? "ended" : "cancelled" }
        #expect(phases == ["began", "ended", "began", "ended", "began", "ended"], "\(received)")
        let times = unique.compactMap { line -> Double? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["t"] as? Double
        }
        #expect(times == times.sorted(), "\(times)")
        #expect(second.messages.contains { $0.topic == "imu/twin/availability" && $0.payload == "online" })
    }

    @Test func theLastWillSaysOfflineWhenTheDaemonDies() async throws {
        try await withSetup { setup in
            let (subscriber, rules) = (setup.subscriber, setup.rules)
            let daemon = try IMUProcess(["run", "--config", rules, "--sim", "still"])
            #expect(await subscriber.wait(within: 30) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "online" } })
            daemon.send(SIGKILL)
            _ = try? await daemon.finish(within: 10)
            #expect(await subscriber.wait(within: 30) { $0.contains { $0.topic == "imu/twin/availability" && $0.payload == "offline" } })
        }
    }

    /// A broker that accepts connections and never answers (SIGSTOP): rules still fire on time,
    /// and the events queued meanwhile arrive in order once it answers again.
    @Test func aBrokerThatStopsAnsweringDelaysNothing() async throws {
        try await withSetup { setup in
            let (broker, subscriber, rules) = (setup.broker, setup.subscriber, setup.rules)
            broker.signal(SIGSTOP)
            let daemon = try IMUProcess(["run", "--config", rules, "--sim", "shake", "--duration", "10"])
            try await Task.sleep(for: .seconds(7))
            broker.signal(SIGCONT)
            let result = try await daemon.finish(within: 60)
            #expect(result.succeeded, "\(result)")
            // Both shakes fired their rule while the broker was silent.
            let fired = result.stderr.split(separator: "\n").filter { $0.contains("rule fired") }
            #expect(fired.count == 2, "\(result.stderr)")
            _ = await subscriber.wait(within: 20) { shakeLines($0, device: "twin").count >= 4 }
            let phases = shakeLines(subscriber.messages, device: "twin").map { $0.contains("began") ? "began" : "ended" }
            #expect(Array(phases.prefix(4)) == ["began", "ended", "began", "ended"], "\(subscriber.messages)")
        }
    }
}
