import Foundation
import Testing

/// `imu events` and `imu stream` through a daemon print what they print reading the twin
/// themselves: the same events in the same order and motion lines with the same keys, from the
/// moment the client joined. (The live twin stamps samples with the real clock when they are
/// read, so two runs, on a loaded machine, differ in their times by tens of milliseconds: the
/// times are not compared.)
@Suite(.serialized) struct ThroughDaemonTests {
    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    func time(_ line: String) -> Double? {
        guard line.hasPrefix("{\"t\":") else { return nil }
        return Double(line.dropFirst(5).prefix { $0 != "," && $0 != "}" })
    }

    /// A quiet rules file (one rule that never fires) in a directory of its own.
    static let quietRules = "[[rule]]\nname = \"quiet\"\non = \"slap\"\n  [[rule.action]]\n  command = [\"/bin/true\"]\n"

    /// `imu run --sim …` serving a socket in `directory`; nil (the failure recorded) when it never
    /// served it. Bounded generously: with the whole suite on two cores a daemon can take long to start.
    func startDaemon(_ simulation: [String], in directory: URL) async throws -> (process: IMUProcess, socket: String)? {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rules = directory.appendingPathComponent("rules.toml")
        try Self.quietRules.write(to: rules, atomically: true, encoding: .utf8)
        let socket = directory.appendingPathComponent("imu.sock").path
        let process = try IMUProcess(["run", "--config", rules.path, "--sim"] + simulation + ["--socket", socket])
        let deadline = Date().addingTimeInterval(180)
        while !FileManager.default.fileExists(atPath: socket), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard FileManager.default.fileExists(atPath: socket) else {
            Issue.record("imu run did not serve \(socket): \(try await process.finish(within: 60))")
            return nil
        }
        return (process, socket)
    }

    @Test func eventsAndMotionAreTheSameEitherWay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("through-daemon-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Until stopped, on a scenario that repeats (shaken 2 s, still 2 s): whenever the clients
        // join on a loaded machine, events keep coming.
        guard let (daemon, socket) = try await startDaemon(["shake"], in: directory) else { return }
        async let viaEvents = imu("events", "--socket", socket, "--format", "jsonl", "--duration", "11", within: 180)
        async let viaStream = imu("stream", "--socket", socket, "--format", "jsonl", "--rate", "10", "--count", "40", within: 180)
        let (events, stream) = try await (viaEvents, viaStream)
        daemon.send(SIGTERM)
        _ = try await daemon.finish(within: 180)
        #expect(events.status == 0, "\(events.stderr)")
        #expect(stream.status == 0, "\(stream.stderr)")
        let directEvents = try await imu("events", "--sim", "shake", "--format", "jsonl", "--duration", "13", within: 180)
        let directStream = try await imu("stream", "--sim", "shake", "--format", "jsonl", "--duration", "4", within: 180)

        // Events: the client's are the direct run's, in order (slaps included: a shake met part
        // way, as the live twin's warm-up meets it, gives none).
        func kind(_ line: String) -> String { String(line.drop { $0 != "," }) }
        let got = lines(events.stdout), all = lines(directEvents.stdout)
        #expect(got.count >= 4, "through the daemon: \(events.stdout)")
        #expect(!(events.stdout + directEvents.stdout).contains("\"type\":\"slap\""), "a shake gave a slap")
        let start = all.firstIndex { kind($0) == kind(got.first ?? "") } ?? all.count
        let matching = Array(all[start...].prefix(got.count))
        #expect(matching.map(kind) == got.map(kind), "direct:\n\(directEvents.stdout)\nthrough the daemon:\n\(events.stdout)")

        // Motion: the direct run's keys in the same order, time going forward.
        func keys(_ line: String) -> [String] {
            line.split(separator: ",").compactMap { part in part.split(separator: ":").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "{\"")) } }
        }
        let motion = lines(stream.stdout), allMotion = lines(directStream.stdout)
        #expect(motion.count == 40)
        #expect(!allMotion.isEmpty && motion.allSatisfy { keys($0) == keys(allMotion[0]) })
        for (a, b) in zip(motion, motion.dropFirst()) { #expect(time(b)! > time(a)!, "\(a) then \(b)") }
    }

    /// `imu events --duration` through a daemon that has nothing to say (the twin lying still)
    /// still ends: events are sparse, so their duration runs on the clock, not on the next
    /// event's time (which, lying still, never comes).
    @Test func eventsEndOnTimeWhenNothingHappens() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quiet-daemon-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (daemon, socket) = try await startDaemon(["still"], in: directory) else { return }
        let events = try await imu("events", "--socket", socket, "--format", "jsonl", "--duration", "2", within: 120)
        daemon.send(SIGTERM)
        _ = try await daemon.finish(within: 180)
        #expect(events.status == 0, "\(events.stderr)")
        // At most the orientation the recogniser states once it has settled (face up), no more.
        #expect(lines(events.stdout).allSatisfy { $0.hasSuffix("\"orientation\":\"faceUp\"}") } && lines(events.stdout).count <= 1, "\(events.stdout)")
    }

    /// `imu read`'s table through a daemon at 10 Hz is the direct table at 10 Hz: the same
    /// header lines and the same fixed-width columns, the twin lying still in both (face up:
    /// z near −1 g). Times and noise differ between two runs, so the values are compared by
    /// column, not digit by digit.
    @Test func readsTableIsTheSameEitherWay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("read-table-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (daemon, socket) = try await startDaemon(["still", "--rate", "10"], in: directory) else { return }
        let through = try await imu("read", "--socket", socket, "--count", "5", "--format", "table", within: 180)
        daemon.send(SIGTERM)
        _ = try await daemon.finish(within: 120)
        let direct = try await imu("read", "--sim", "still", "--rate", "10", "--count", "5", "--format", "table", "--direct", within: 180)
        #expect(through.succeeded, "\(through)")
        #expect(direct.succeeded, "\(direct)")
        #expect(through.lines.count == 7 && direct.lines.count == 7, "\(through.stdout)\n\(direct.stdout)")
        #expect(Array(through.lines.prefix(2)) == Array(direct.lines.prefix(2)), "\(through.stdout)\n\(direct.stdout)")
        func columns(_ line: String) -> [Double] { line.split(separator: " ").compactMap { Double($0) } }
        for (a, b) in zip(through.lines.dropFirst(2), direct.lines.dropFirst(2)) {
            #expect(a.count == b.count, "\(a)\n\(b)")
            let (x, y) = (columns(a), columns(b))
            #expect(x.count == 11 && y.count == 11, "\(a)\n\(b)")
            // acc z: lying face up in both.
            if x.count == 11, y.count == 11 { #expect(abs(x[3] + 1) < 0.05 && abs(y[3] + 1) < 0.05, "\(a)\n\(b)") }
        }
    }

    /// `imu stream` through a daemon is a motion manager on the daemon's samples: the frame and
    /// the format are the command's own, as with the chip to itself (the daemon's motion is in
    /// magnetic north; asked for xArbitraryZVertical there is no heading), and the table works.
    @Test func streamTakesItsOwnFrameAndFormatThroughTheDaemon() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stream-frame-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (daemon, socket) = try await startDaemon(["figure-eight"], in: directory) else { return }
        let arbitrary = try await imu(
            "stream", "--socket", socket, "--format", "jsonl", "--frame", "xArbitraryZVertical", "--count", "20", within: 180)
        let north = try await imu("stream", "--socket", socket, "--format", "jsonl", "--count", "20", within: 180)
        let table = try await imu("stream", "--socket", socket, "--format", "table", "--rate", "50", "--count", "5", within: 180)
        daemon.send(SIGTERM)
        _ = try await daemon.finish(within: 180)
        #expect(arbitrary.succeeded && north.succeeded && table.succeeded, "\(arbitrary)\n\(north)\n\(table)")
        #expect(arbitrary.lines.count == 20 && arbitrary.lines.allSatisfy { $0.contains("\"heading_deg\":null") }, "\(arbitrary.stdout)")
        #expect(north.lines.count == 20 && north.lines.allSatisfy { !$0.contains("\"heading_deg\":null") }, "\(north.stdout)")
        // The direct table's two header lines (the source says the daemon), then 5 rows 50 Hz apart.
        #expect(table.lines.count == 7 && table.lines[0].hasSuffix("through the daemon at \(socket), xMagneticNorthZVertical"), "\(table.stdout)")
        let times = table.lines.dropFirst(2).compactMap { Double($0.split(separator: " ").first ?? "") }
        #expect(times.count == 5 && zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.02) < 0.005 }, "\(table.stdout)")
    }
}
