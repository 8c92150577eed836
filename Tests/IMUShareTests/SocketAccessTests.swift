import IMUFrontEnd
import Foundation
import Testing
@testable import IMUShare

/// What keeps the socket fair and its state safe: the idle timeout, the per-user slot cap and
/// state-changing requests checked against the peer's credentials (issue 25). Real sockets, a
/// real second user where the test runs as root.
@Suite(.serialized) struct SocketAccessTests {
    func withServer(_ configure: (inout ShareServer.Settings) -> Void = { _ in }, notes: NoteLog = NoteLog(),
                    _ body: (ShareServer, ScriptedFeed, String) throws -> Void) throws {
        let feed = ScriptedFeed()
        var settings = ShareServer.Settings(path: temporarySocketPath())
        configure(&settings)
        let server = ShareServer(settings: settings, feed: feed, note: { notes.append($0) })
        try server.start()
        defer { server.stop() }
        try body(server, feed, settings.path)
    }

    final class NoteLog: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ note: ShareServer.Note) {
            lock.withLock {
                switch note {
                case .info(let text): lines.append("info: " + text)
                case .warning(let text): lines.append("warning: " + text)
                }
            }
        }
        var all: [String] { lock.withLock { lines } }
    }

    /// A client that neither asks nor subscribes is told why and closed; bytes that never end a
    /// line do not keep it; a subscribed reader that never writes stays.
    @Test func anIdleClientIsClosedASubscribedReaderIsNot() throws {
        try withServer({ $0.idleSeconds = 1 }) { server, feed, path in
            let reader = try LineClient(path: path)
            _ = reader.line()
            reader.send(#"{"op":"subscribe","stream":"motion"}"# + "\n")
            #expect(reader.object()?["type"] == .string("subscribed"))
            let idle = try LineClient(path: path)
            _ = idle.line()
            let dribbler = try LineClient(path: path)
            _ = dribbler.line()
            for _ in 0..<3 where !dribbler.ended {
                dribbler.send("{")
                usleep(100_000)
            }
            #expect(idle.object() == ["type": .string("bye"), "reason": .string("closed after 1 s without a request or a subscription")])
            #expect(idle.line() == nil && idle.ended)
            #expect(dribbler.object()?["type"] == .string("bye"))
            #expect(dribbler.line() == nil && dribbler.ended)
            #expect(feed.wait { server.statistics.closedIdle == 2 })
            // Well past its idle time, the reader still gets what it subscribed to.
            usleep(1_500_000)
            feed.publish(FeedOutput(stream: .motion, jsonLine: "{\"t\":1,\"pitch_deg\":1.00}", headingDegrees: nil))
            #expect(reader.line() == "{\"t\":1,\"pitch_deg\":1.00}")
            #expect(server.clientCount == 1)
        }
    }

    /// One user cannot take every slot: past `maxClientsPerUser` its connections are refused by
    /// uid, while the server has room; a slot given back can be taken again.
    @Test func oneUserCannotTakeEverySlot() throws {
        try withServer({ $0.maxClientsPerUser = 2 }) { server, _, path in
            var held = [try LineClient(path: path), try LineClient(path: path)]
            for client in held { #expect(client.object()?["type"] == .string("hello")) }
            let third = try LineClient(path: path)
            #expect(third.object()?["error"] == .string("too many connections from uid \(getuid()) (2 at once); close one and try again"))
            #expect(third.line() == nil && third.ended)
            #expect(server.statistics.refusedPerUser == 1)
            held.removeFirst()
            // The server sees the hang-up on its own thread: wait for it before asking again.
            let deadline = Date().addingTimeInterval(30)
            while server.clientCount > 1, Date() < deadline { usleep(10_000) }
            #expect(server.clientCount == 1)
            let again = try LineClient(path: path)
            #expect(again.object()?["type"] == .string("hello"))
        }
    }

    @Test func controlNeedsRootOrTheSocketsGroup() {
        let access = ControlAccess(group: 990)
        #expect(access.allows(PeerCredentials(pid: 1, uid: 0, gid: 0)))
        #expect(access.allows(PeerCredentials(pid: 1, uid: 1000, gid: 990)))
        #expect(access.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27, 990])))
        #expect(!access.allows(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [27])))
        #expect(!access.allows(nil))
    }

    /// The kernel's word on who connected: this process.
    @Test func peerCredentialsComeFromTheKernel() throws {
        try withServer { _, _, path in
            let client = try LineClient(path: path)
            _ = client.line()
            // The client's own view of its peer is the server, in this same process.
            let peer = try #require(PeerCredentials.of(socket: client.fd))
            #expect(peer.pid == getpid() && peer.uid == geteuid() && peer.gid == getegid())
        }
    }

    /// Another user the socket's mode lets in is served, but its reload-calibration is refused,
    /// and the refusal is logged with its uid. A real second process (socat) as uid/gid 65534.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/socat")))
    func anotherUserIsServedButCannotReload() throws {
        let notes = NoteLog()
        try withServer({ $0.mode = 0o666; $0.idleSeconds = 0.5 }, notes: notes) { server, _, path in
            chmod((path as NSString).deletingLastPathComponent, 0o755)
            func ask(_ request: String, asUser: Bool) throws -> [String] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                let who = asUser ? ["--reuid=65534", "--regid=65534", "--clear-groups"] : ["--reuid=0"]
                process.arguments = who + ["/usr/bin/socat", "-t", "30", "-", "UNIX-CONNECT:" + path]
                let input = Pipe(), output = Pipe()
                process.standardInput = input
                process.standardOutput = output
                try process.run()
                input.fileHandleForWriting.write(Data((request + "\n").utf8))
                // The input ends after the ping: with no subscription, the idle timeout closes the
                // connection (a bye line), and socat ends with it.
                input.fileHandleForWriting.write(Data("{\"op\":\"ping\"}\n".utf8))
                try input.fileHandleForWriting.close()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return text.split(separator: "\n").map(String.init)
            }
            let refused = try ask(#"{"op":"reload-calibration","id":"r"}"#, asUser: true)
            #expect(refused.count == 4 && refused.last?.hasPrefix("{\"type\":\"bye\"") == true, "\(refused)")
            #expect(refused.dropFirst().first?.hasPrefix(
                "{\"error\":\"reload-calibration changes the daemon's state: only root and members of the socket's group (gid 0) may ask; you are uid 65534") == true,
                "\(refused)")
            #expect(refused.dropFirst(2).first == "{\"type\":\"pong\"}")
            #expect(server.statistics.controlRefused == 1)
            #expect(notes.all.contains { $0.hasPrefix("warning: refused reload-calibration from uid 65534, pid ") }, "\(notes.all)")
            // Root passes the check (this feed keeps no calibration, and says so).
            let allowed = try ask(#"{"op":"reload-calibration"}"#, asUser: false)
            #expect(allowed.dropFirst().first == "{\"error\":\"this server keeps no calibration to reload\"}", "\(allowed)")
        }
    }
}
