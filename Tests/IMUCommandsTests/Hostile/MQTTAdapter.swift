import Foundation

/// The command topic `imu/twin/command` on a real broker, answers on `imu/twin/command/result`.
struct MQTTAdapter: HostileAdapter {
    let daemon: HostileDaemon

    var results: [String] {
        daemon.subscriber.messages.filter { $0.topic == "imu/twin/command/result" }.map(\.payload)
    }

    /// `mosquitto_pub` with the payload's exact bytes (from a file).
    func publish(_ payload: [UInt8]) throws {
        let file = daemon.directory.appendingPathComponent("payload-\(UUID())")
        try Data(payload).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Spawn.run(
            ["/usr/bin/mosquitto_pub", "-h", "127.0.0.1", "-p", "\(daemon.broker.port)", "-q", "1", "-t", "imu/twin/command"]
                + ["-f", file.path],
            environment: daemon.environment)
        guard run.status == 0 else { throw RawConnection.Failure(description: "mosquitto_pub: \(run)") }
    }

    func perform(_ hostile: HostileCase) async throws -> Observed {
        let before = results.count
        switch hostile {
        case .flood:
            // 100 commands at once, published by one client as fast as the broker takes them.
            let count = 100
            let lines = (0..<count).map { #"{"command":"nonsense-\#($0)"}"# }.joined(separator: "\n") + "\n"
            let file = daemon.directory.appendingPathComponent("flood")
            try lines.write(to: file, atomically: true, encoding: .utf8)
            let run = try Spawn.run(
                ["/bin/sh", "-c", "exec /usr/bin/mosquitto_pub -h 127.0.0.1 -p \(daemon.broker.port) -q 1 -t imu/twin/command -l < \"$0\"", file.path],
                environment: daemon.environment)
            guard run.status == 0 else { throw RawConnection.Failure(description: "mosquitto_pub: \(run)") }
            let all = await eventually(within: 30) { results.count >= before + count }
            return Observed(seen: all ? HostileCase.everyOneAnswered : "\(results.count - before) answers of \(count)")
        default:
            try publish(try hostile.bytes())
            _ = await eventually(within: 10) { results.count > before }
            return Observed(seen: results.dropFirst(before).first ?? "nothing")
        }
    }

    /// A command answered, and a motion message published after it.
    func wellBehavedClientIsServed(within seconds: Double) async throws -> Bool {
        let before = results.count
        let motions = daemon.subscriber.messages.filter { $0.topic == "imu/twin/motion" }.count
        try publish(Array(#"{"command":"ping"}"#.utf8))
        return await eventually(within: seconds) {
            results.count > before && daemon.subscriber.messages.filter { $0.topic == "imu/twin/motion" }.count > motions
        }
    }
}
