import IMUFrontEnd
import Foundation
import IMUEvents
import Testing
@testable import IMUShare

@Suite(.serialized) struct ShareServerTests {
    func motion(_ n: Int) -> FeedOutput {
        FeedOutput(stream: .motion, jsonLine: "{\"t\":\(n),\"pitch_deg\":1.00}", headingDegrees: nil)
    }

    func withServer(_ configure: (inout ShareServer.Settings) -> Void = { _ in }, _ body: (ShareServer, ScriptedFeed, String) throws -> Void) throws {
        let feed = ScriptedFeed()
        var settings = ShareServer.Settings(path: temporarySocketPath())
        configure(&settings)
        let server = ShareServer(settings: settings, feed: feed)
        try server.start()
        defer { server.stop() }
        try body(server, feed, settings.path)
    }

    @Test func aClientIsGreetedWithTheProtocolAndTheChip() throws {
        try withServer { _, _, path in
            let client = try LineClient(path: path)
            let hello = try #require(client.object())
            #expect(hello["type"] == .string("hello"))
            #expect(hello["protocol"] == .number(1))
            #expect(hello["chip"] == .string("LSM9DS1"))
            #expect(hello["board"] == .string("sense-hat"))
            #expect(hello["streams"] == .array([.string("samples"), .string("motion"), .string("events"), .string("health")]))
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o660)
        }
    }

    /// A feed without a calibration (no engine behind it) refuses a reload with a reason, and
    /// the connection serves on.
    @Test func aReloadTheFeedCannotDoIsAnsweredWithAnError() throws {
        try withServer { _, _, path in
            let client = try LineClient(path: path)
            _ = client.object()
            client.send(#"{"op":"reload-calibration","id":"r"}"# + "\n")
            let reply = try #require(client.object())
            #expect(reply["error"] == .string("this server keeps no calibration to reload"))
            #expect(reply["id"] == .string("r"))
            client.send(#"{"op":"ping"}"# + "\n")
            #expect(client.object()?["type"] == .string("pong"))
        }
    }

    @Test func motionAtARateIsEveryNthUpdateAfterTheReply() throws {
        try withServer { _, feed, path in
            let client = try LineClient(path: path)
            _ = client.line()
            client.send(#"{"op":"subscribe","stream":"motion","rate_hz":25,"id":1}"# + "\n")
            let reply = try #require(client.object())
            #expect(reply["type"] == .string("subscribed"))
            #expect(reply["divisor"] == .number(4) && reply["rate_hz"] == .number(25) && reply["id"] == .number(1))
            #expect(feed.wait { feed.subscriberCount == 1 })
            for n in 0..<12 { feed.publish(motion(n)) }
            #expect(client.line() == "{\"t\":0,\"pitch_deg\":1.00}")
            #expect(client.line() == "{\"t\":4,\"pitch_deg\":1.00}")
            #expect(client.line() == "{\"t\":8,\"pitch_deg\":1.00}")
            client.send(#"{"op":"unsubscribe","stream":"motion"}"# + "\n")
            #expect(client.object()?["type"] == .string("unsubscribed"))
            #expect(feed.wait { feed.subscriberCount == 0 })
        }
    }

    /// issue 25: a rate far below the engine's made a divisor too large for an Int, and the
    /// conversion killed the daemon. Refused now, and the connection serves on.
    @Test func aRateNoDivisorCanGiveIsRefusedAndTheServerServesOn() throws {
        try withServer { _, feed, path in
            let client = try LineClient(path: path)
            _ = client.line()
            for (request, key) in [(#"{"op":"subscribe","stream":"motion","rate_hz":1e-20,"id":1}"#, "rate_hz"),
                                   (#"{"op":"subscribe","stream":"motion","interval_ms":1e30,"id":1}"#, "interval_ms")] {
                client.send(request + "\n")
                let reply = try #require(client.object(), "\(request)")
                guard case .string(let message)? = reply["error"] else {
                    Issue.record("not refused: \(request) → \(reply)")
                    continue
                }
                #expect(message.hasPrefix("\"\(key)\" must be from"), "\(message)")
                #expect(reply["id"] == .number(1))
            }
            client.send(#"{"op":"subscribe","stream":"motion","rate_hz":0.001}"# + "\n")
            let slowest = try #require(client.object())
            #expect(slowest["type"] == .string("subscribed") && slowest["divisor"] == .number(100_000), "\(slowest)")
            client.send(#"{"op":"ping"}"# + "\n")
            #expect(client.object()?["type"] == .string("pong"))
            #expect(feed.wait { feed.subscriberCount == 1 })
        }
    }

    /// The dashboard's list form works on the socket too: each stream answered in turn; a stream
    /// this server does not offer is refused by name, and nothing of a bad line is acted on.
    @Test func theListFormIsAnsweredStreamByStream() throws {
        try withServer { _, feed, path in
            let client = try LineClient(path: path)
            _ = client.line()
            client.send(#"{"subscribe":["motion","events"],"rate_hz":25,"events":["shake"],"id":"l"}"# + "\n")
            let motion = try #require(client.object())
            #expect(motion["type"] == .string("subscribed") && motion["stream"] == .string("motion") && motion["divisor"] == .number(4))
            let events = try #require(client.object())
            #expect(events["stream"] == .string("events") && events["types"] == .array([.string("shake")]) && events["id"] == .string("l"))
            #expect(events["streams"] == .array([.string("motion"), .string("events")]))
            client.send(#"{"subscribe":["rules"]}"# + "\n")
            #expect(client.object()?["error"] == .string("this daemon does not offer the rules stream"))
            client.send(#"{"subscribe":["health"],"rate_hz":5}"# + "\n")
            #expect(client.object()?["error"] == .string("\"rate_hz\" applies to \"motion\" among the streams only (samples come at the engine's rate)"))
            client.send(#"{"unsubscribe":["motion","events"]}"# + "\n")
            #expect(client.object()?["type"] == .string("unsubscribed"))
            let last = try #require(client.object())
            #expect(last["type"] == .string("unsubscribed") && last["streams"] == .array([]))
            #expect(feed.wait { feed.subscriberCount == 0 })
        }
    }

    @Test func garbageIsAnsweredAndTheConnectionServesOn() throws {
        try withServer { server, _, path in
            let client = try LineClient(path: path)
            _ = client.line()
            client.send("garbage\n\u{00}\u{FF}\n{\"op\":\"ping\",\"id\":\"p\"}\n")
            #expect(client.object()?["error"] != nil)
            #expect(client.object()?["error"] != nil)
            #expect(client.object() == ["type": .string("pong"), "id": .string("p")])
            #expect(server.statistics.requestErrors == 2)
        }
    }

    @Test func anOverlongLineIsRefusedOnceAndThrownAway() throws {
        try withServer({ $0.maxRequestBytes = 1024 }) { server, _, path in
            let client = try LineClient(path: path)
            _ = client.line()
            // 4 MiB in one line: refused once, read and dropped as it comes, never held.
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65536)
            for _ in 0..<64 { #expect(client.sendBytes(chunk)) }
            client.send("\n{\"op\":\"ping\"}\n")
            let refusal = try #require(client.object())
            #expect(refusal["error"] == .string("request line longer than 1024 bytes; it is ignored"))
            #expect(client.object()?["type"] == .string("pong"))
            #expect(server.statistics.overlongLines == 1)
        }
    }

    @Test func clientsOverTheLimitAreToldWhy() throws {
        try withServer({ $0.maxClients = 2 }) { server, _, path in
            let first = try LineClient(path: path), second = try LineClient(path: path)
            _ = first.line()
            _ = second.line()
            let third = try LineClient(path: path)
            #expect(third.object()?["error"] == .string("too many clients (2 connected); try again later"))
            #expect(third.line() == nil && third.ended)
            #expect(server.statistics.refused == 1)
        }
    }

    @Test func aClientThatDoesNotReadLosesLinesAndIsToldTheCount() throws {
        try withServer({ $0.queueCapacity = 64; $0.outboxBytes = 4096 }) { _, feed, path in
            let slow = try LineClient(path: path), quick = try LineClient(path: path)
            _ = slow.line()
            _ = quick.line()
            slow.send(#"{"op":"subscribe","stream":"motion"}"# + "\n")
            quick.send(#"{"op":"subscribe","stream":"motion"}"# + "\n")
            _ = slow.line()
            _ = quick.line()
            #expect(feed.wait { feed.subscriberCount == 2 })
            // Far more than the slow client's queue, outbox and socket buffer hold together, in
            // batches smaller than a queue: the quick client reads each batch before the next.
            let published = 20000
            var quickSeen = 0
            var quickLost = false
            for n in 0..<published {
                feed.publish(motion(n))
                guard n % 32 == 31 || n == published - 1 else { continue }
                while quickSeen <= n, let line = quick.line(timeout: 5) {
                    if line.hasPrefix("{\"t\":") { quickSeen += 1 } else { quickLost = true }
                }
            }
            #expect(!quickLost)
            #expect(quickSeen == published)
            // Now the slow one reads: every line is data or a count of what it lost, and the
            // two add up to what was published; the last line is the newest output.
            var data = 0, lost = 0, last = ""
            while data + lost < published, let line = slow.line(timeout: 5) {
                if line.hasPrefix("{\"type\":\"lost\"") {
                    guard case .number(let count)? = (try? JSONText.parse(Array(line.utf8))).flatMap({ value -> JSONValue? in
                        if case .object(let m) = value { return m.first { $0.0 == "count" }?.1 } else { return nil }
                    }) else { Issue.record("bad lost line \(line)"); break }
                    lost += Int(count)
                } else {
                    data += 1
                    last = line
                }
            }
            #expect(lost > 0)
            #expect(data + lost == published)
            #expect(last == "{\"t\":\(published - 1),\"pitch_deg\":1.00}")
        }
    }

    @Test func aHalfClosedClientStillReceives() throws {
        try withServer { _, feed, path in
            let client = try LineClient(path: path)
            _ = client.line()
            client.send(#"{"op":"subscribe","stream":"events","types":["shake"]}"#)
            client.shutdownWriting()
            #expect(client.object()?["type"] == .string("subscribed"))
            #expect(feed.wait { feed.subscriberCount == 1 })
            feed.publish(FeedOutput(stream: .events, jsonLine: "slap", event: .slap(SlapEvent(direction: .left, timestamp: 1))))
            feed.publish(FeedOutput(stream: .events, jsonLine: "shake", event: .shake(.began(timestamp: 2))))
            #expect(client.line() == "shake")
        }
    }

    @Test func stoppingSaysGoodbyeAndRemovesTheSocket() throws {
        let feed = ScriptedFeed()
        let path = temporarySocketPath()
        let server = ShareServer(settings: .init(path: path), feed: feed)
        try server.start()
        let client = try LineClient(path: path)
        _ = client.line()
        server.stop()
        #expect(client.object() == ["type": .string("bye"), "reason": .string("the daemon is stopping")])
        #expect(client.line() == nil)
        #expect(access(path, F_OK) != 0)
    }

    @Test func aStaleSocketIsReplacedALiveOneRefused() throws {
        let path = temporarySocketPath()
        // A socket file nobody listens on (a daemon that was killed).
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try #require(unixAddress(path))
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(stale)
        let first = ShareServer(settings: .init(path: path), feed: ScriptedFeed())
        try first.start()
        defer { first.stop() }
        let second = ShareServer(settings: .init(path: path), feed: ScriptedFeed())
        #expect(throws: SocketError.self) { try second.start() }
        do {
            try second.start()
        } catch {
            #expect(error.message == "another daemon already serves \(path); stop it, or give this one --socket PATH or --no-socket")
        }
        let file = temporarySocketPath("not-a-socket")
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        #expect(throws: SocketError.self) { try ShareServer(settings: .init(path: file), feed: ScriptedFeed()).start() }
    }

    @Test func manyConnectsAndDisconnectsLeaveNothingBehind() throws {
        try withServer { server, feed, path in
            for i in 0..<1000 {
                let fd = try connectUnixSocket(path).get()
                if i % 2 == 0 { _ = "{\"op\":\"subscribe\",\"stream\":\"motion\"}\n".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }
                close(fd)
            }
            let client = try LineClient(path: path)
            #expect(client.object()?["type"] == .string("hello"))
            // Every one of the 1000 ended and was let go of, their subscriptions with them.
            #expect(feed.wait { server.clientCount == 1 && server.statistics.finished == 1000 }, "\(server.statistics)")
            #expect(feed.wait { feed.subscriberCount == 0 })
        }
    }

    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
