import Foundation
import Testing

/// The command topic against a careless or hostile publisher, on a real broker: a retained
/// command (it ran at every start), a payload far over the limit (it was copied whole before
/// the size check), and a flood (of 1000 commands 24 were answered, the rest vanished unlogged).
extension MQTTTests {
    /// `mosquitto_pub` with the payload from a file (`-f`) or each stdin line a message (`-l`).
    func publish(_ broker: MosquittoBroker, topic: String, arguments: [String], stdin: String? = nil) async throws {
        let pub = Process()
        pub.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
        pub.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", topic] + arguments
        let input = Pipe()
        if stdin != nil { pub.standardInput = input }
        try pub.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        while pub.isRunning { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aRetainedCommandIsIgnoredAndCleared() async throws {
        try await withSetup("allow-commands = true") { setup in
            // Left on the broker by someone's `mosquitto_pub -r`: it used to recalibrate at every start.
            try await publish(setup.broker, topic: "imu/twin/command", #"{"command":"reload"}"#, extra: ["-r"])
            let daemon = try await daemonListening(setup, scenario: "still", environment: [:])
            // An ordinary command after it: once its answer is in, the retained one was seen.
            try await publish(setup.broker, topic: "imu/twin/command", #"{"command":"reboot"}"#)
            #expect(await setup.subscriber.wait(within: 60) { _ in !results(setup.subscriber).isEmpty })
            daemon.send(SIGTERM)
            let run = try await daemon.finish(within: 30)
            #expect(run.succeeded, "\(run)")
            let answers = results(setup.subscriber)
            #expect(answers.count == 1 && answers.first?["command"] as? String == "reboot", "\(answers)")
            #expect(run.stderr.contains("refused: 1 retained (ignored and cleared"), "\(run.stderr)")
            // Cleared: a new subscriber gets no retained command.
            let seen = try await messagesOnSubscribing(setup.broker, topic: "imu/twin/command")
            #expect(seen?.allSatisfy { !$0.retained && $0.payload.isEmpty } == true, "\(String(describing: seen))")
        }
    }

    /// What a new subscriber to `topic` gets up to its own probe (an empty message): the
    /// retained message, if any, comes first. nil when the probe never came.
    func messagesOnSubscribing(_ broker: MosquittoBroker, topic: String) async throws -> [MQTTSubscriber.Message]? {
        let late = try MQTTSubscriber(port: broker.port, topic: topic)
        defer { late.stop() }
        for _ in 0..<50 {
            try await publish(broker, topic: topic, "")
            if await late.wait(within: 0.2, until: { $0.contains { $0.payload.isEmpty && !$0.retained } }) { return late.messages }
        }
        return nil
    }

    @Test func aPayloadOverTheLimitIsRefusedWithItsSize() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imu-big-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(repeating: UInt8(ascii: "x"), count: 1 << 20).write(to: URL(fileURLWithPath: file))
        try await withSetup("allow-commands = true") { setup in
            let daemon = try await daemonListening(setup, scenario: "still", environment: [:])
            try await publish(setup.broker, topic: "imu/twin/command", arguments: ["-f", file])
            #expect(await setup.subscriber.wait(within: 60) { _ in !results(setup.subscriber).isEmpty })
            daemon.send(SIGTERM)
            let run = try await daemon.finish(within: 30)
            #expect(run.succeeded, "\(run)")
            let answer = try #require(results(setup.subscriber).first)
            #expect(answer["reason"] as? String == "too large", "\(answer)")
            #expect(answer["error"] as? String == "the message is 1048576 bytes; a command is at most 4096", "\(answer)")
            #expect(run.stderr.contains("refused: 1 too large (over 4096 bytes)"), "\(run.stderr)")
        }
    }

    /// 1000 reloads at once: each is answered, carried out or refused as busy, and the
    /// refusals are logged with their count.
    @Test func aFloodOfCommandsIsAnsweredEveryOne() async throws {
        try await withSetup("allow-commands = true") { setup in
            let daemon = try await daemonListening(setup, scenario: "still", environment: [:])
            let flood = String(repeating: #"{"command":"reload"}"# + "\n", count: 1000)
            try await publish(setup.broker, topic: "imu/twin/command", arguments: ["-l"], stdin: flood)
            let all = await setup.subscriber.wait(within: 120) { _ in results(setup.subscriber).count >= 1000 }
            daemon.send(SIGTERM)
            let run = try await daemon.finish(within: 30)
            #expect(run.succeeded, "\(run)")
            let answers = results(setup.subscriber)
            #expect(all && answers.count == 1000, "\(answers.count) answers")
            let reloaded = answers.filter { $0["result"] as? String == "reloaded" }.count
            let busy = answers.filter { $0["reason"] as? String == "busy" && $0["command"] as? String == "reload" }.count
            #expect(reloaded >= 1 && reloaded + busy == answers.count, "\(reloaded) reloaded, \(busy) busy of \(answers.count)")
            // Every refusal told in the log, in a few lines with their counts.
            let told = run.stderr.split(separator: "\n").filter { $0.contains("refused: ") }.compactMap { line -> Int? in
                guard let range = line.range(of: "refused: ") else { return nil }
                return Int(line[range.upperBound...].prefix { $0.isNumber })
            }
            #expect(told.reduce(0, +) == busy && told.count <= 4, "\(told): \(run.stderr)")
        }
    }
}
