import Foundation

/// One `imu run` with every front end on (socket, dashboard on loopback with control, MQTT with
/// commands, D-Bus on a private bus), a real broker and bus, a calibration directory to watch,
/// and the daemon's descriptors and resident memory as /proc tells them.
final class HostileDaemon: @unchecked Sendable {
    let broker: MosquittoBroker
    let bus: PrivateDBus
    let subscriber: MQTTSubscriber
    let process: IMUProcess
    let directory: URL
    let socketPath: String
    let httpPort: Int
    let calibrationDirectory: URL

    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { _, new in new }
    }

    static var peersPresent: Bool {
        MosquittoBroker.available && PrivateDBus.available
            && ["/usr/bin/monitor-sensor", "/usr/bin/stdbuf", "/usr/bin/dbus-send", "/usr/bin/setpriv", "/usr/bin/python3"]
                .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-hostile-\(UUID().uuidString.prefix(8))")
        calibrationDirectory = directory.appendingPathComponent("calibration")
        try FileManager.default.createDirectory(at: calibrationDirectory, withIntermediateDirectories: true)
        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // A calibration in force, so "nothing changed" has something to compare.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(
            at: repository.appendingPathComponent("Fuzz/Corpus/CalibrationFileFuzz/lsm9ds1-sim-0x6a.toml"),
            to: calibrationDirectory.appendingPathComponent("lsm9ds1-sim-0x6a.toml"))
        broker = try MosquittoBroker()
        bus = try PrivateDBus()
        subscriber = try MQTTSubscriber(port: broker.port)
        httpPort = try MosquittoBroker.freePort()
        socketPath = directory.appendingPathComponent("imu.sock").path
        let rules = directory.appendingPathComponent("rules.toml")
        try """
            [[rule]]
            name = "quiet"
            on = "slap"
              [[rule.action]]
              command = ["/bin/true"]

            [mqtt]
            url = "mqtt://127.0.0.1:\(broker.port)"
            device-id = "twin"
            allow-commands = true
            motion-interval-ms = 100

            [http]
            listen = "127.0.0.1:\(httpPort)"
            allow-control = true
            """.write(to: rules, atomically: true, encoding: .utf8)
        process = try IMUProcess(
            ["run", "--config", rules.path, "--sim", "upright", "--socket", socketPath, "--dbus", "system"],
            environment: [
                "DBUS_SYSTEM_BUS_ADDRESS": bus.address, "IMU_CALIBRATION_DIR": calibrationDirectory.path,
                "STATE_DIRECTORY": state.path,
            ])
        let ready = await subscriber.wait(within: 60) { $0.contains { $0.topic == "imu/twin/motion" } }
        guard ready, FileManager.default.fileExists(atPath: socketPath) else {
            stop()
            throw MosquittoBroker.Failure("the daemon did not come up: \(try await process.finish(within: 30))")
        }
    }

    var alive: Bool { kill(process.pid, 0) == 0 && !isZombie }

    private var isZombie: Bool {
        ((try? String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8)) ?? "")
            .split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// Open descriptors now.
    var descriptors: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd").count) ?? -1 }

    /// Resident memory now, in KiB.
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// Every file in the calibration directory with its bytes.
    var calibrationFiles: [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: calibrationDirectory.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map {
            ($0, FileManager.default.contents(atPath: calibrationDirectory.appendingPathComponent($0).path) ?? Data())
        })
    }

    func stop() {
        process.send(SIGKILL)
        subscriber.stop()
        bus.stop()
        broker.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Waits (real time, at most `seconds`) until `condition` holds, polling every 20 ms.
func eventually(within seconds: Double, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try condition()
}
