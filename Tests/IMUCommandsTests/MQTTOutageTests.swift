import Foundation
import IMUMQTT
import Synchronization
import Testing

/// The bounded outbox against a real broker that goes silent (SIGSTOP) or away (restarted):
/// a stand-in for the acquisition thread publishes one event per 10 ms throughout; afterwards
/// the events arrive in order, what was lost is exactly what the outbox dropped (one run of
/// the oldest waiting, counted and reported on the health topic), and publishing never blocked.
extension MQTTTests {
    struct OutageFigures: CustomStringConvertible {
        var published = 0
        var received = 0
        var duplicates = 0
        var dropped = 0
        var reportedDropped: Int?
        var publishMicroseconds: (p50: Double, p99: Double, max: Double) = (0, 0, 0)
        var lateTicksMilliseconds: (normal: Double, outage: Double) = (0, 0)
        var drainSeconds = 0.0

        var description: String {
            "published \(published), received \(received) (+\(duplicates) duplicates), dropped \(dropped) (health says \(reportedDropped.map(String.init) ?? "nothing")); "
                + "publish() p50 \(Self.f(publishMicroseconds.p50)) µs, p99 \(Self.f(publishMicroseconds.p99)) µs, max \(Self.f(publishMicroseconds.max)) µs; "
                + "worst tick lateness \(Self.f(lateTicksMilliseconds.normal)) ms with the broker up, \(Self.f(lateTicksMilliseconds.outage)) ms during the outage; "
                + "the backlog delivered \(Self.f(drainSeconds)) s after the broker was back"
        }

        static func f(_ x: Double) -> String { String(format: "%.2f", x) }
    }

    enum Outage { case silent, restarted }

    /// "3–7, 9" for [3, 4, 5, 6, 7, 9].
    func runs(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var start: Int?, last: Int?
        for n in numbers + [Int.min] {
            if let l = last, n == l + 1 { last = n; continue }
            if let s = start, let l = last { parts.append(s == l ? "\(s)" : "\(s)–\(l)") }
            start = n
            last = n
        }
        return parts.joined(separator: ", ")
    }

    /// 2 s up, `seconds` of outage, 2 s up again, at 100 events/s, `queue` events kept.
    func outage(_ kind: Outage, seconds: Double = 5, queue: Int = 200) async throws -> OutageFigures {
        let broker = try MosquittoBroker(persistent: kind == .restarted)
        defer { broker.stop() }
        // A persistent session: what comes while the subscriber is cut off by the restart waits for it.
        let subscriber = try await subscriber(broker, session: ["-c", "-i", "imu-outage-\(UUID().uuidString.prefix(8))"])
        defer { subscriber.stop() }
        var settings = MQTTSettings(host: "127.0.0.1", port: broker.port, tls: false, deviceID: "outage")
        settings.queueLimit = queue
        let logLines = Mutex<[String]>([])
        let publisher = try MQTTPublisher(
            settings: settings, discovery: HomeAssistantDiscovery(settings: settings, model: "test", softwareVersion: "0"),
            log: { _, line in logLines.withLock { $0.append(line) } })
        try publisher.start()
        try #require(await subscriber.wait(within: 30) { $0.contains { $0.topic == "imu/outage/availability" && $0.payload == "online" } })

        let period = 0.01
        let upTicks = 200, outageTicks = Int(seconds / period), total = 2 * upTicks + outageTicks
        // The acquisition stand-in: a thread of its own, ticking on absolute deadlines.
        let timings = Mutex<(publish: [Double], lateNormal: Double, lateOutage: Double, backAt: Double, tickAtBack: Int)>(([], 0, 0, 0, 0))
        let done = Mutex(false)
        let thread = Thread {
            let start = Date().timeIntervalSinceReferenceDate
            for tick in 0..<total {
                let due = start + Double(tick) * period
                let wait = due - Date().timeIntervalSinceReferenceDate
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
                let now = Date().timeIntervalSinceReferenceDate
                let inOutage = tick >= upTicks && tick < upTicks + outageTicks
                // The broker's stop and start on a thread of their own: they wait for the
                // broker, and the acquisition stand-in must not.
                if tick == upTicks {
                    Thread.detachNewThread { kind == .silent ? broker.signal(SIGSTOP) : broker.terminate() }
                }
                if tick == upTicks + outageTicks {
                    Thread.detachNewThread {
                        if kind == .silent { broker.signal(SIGCONT) } else { try? broker.start() }
                        timings.withLock {
                            $0.backAt = Date().timeIntervalSinceReferenceDate
                            $0.tickAtBack = $0.publish.count - 1
                        }
                    }
                }
                let before = DispatchTime.now().uptimeNanoseconds
                publisher.publish(event: #"{"seq":\#(tick)}"#, type: "test", value: nil, timestamp: "\(tick)")
                let took = Double(DispatchTime.now().uptimeNanoseconds - before) / 1000
                timings.withLock {
                    $0.publish.append(took)
                    if inOutage { $0.lateOutage = max($0.lateOutage, now - due) } else { $0.lateNormal = max($0.lateNormal, now - due) }
                }
            }
            done.withLock { $0 = true }
        }
        thread.start()
        func sequence(_ messages: [MQTTSubscriber.Message]) -> [Int] {
            messages.filter { $0.topic == "imu/outage/event" }.compactMap {
                Int($0.payload.dropFirst(#"{"seq":"#.count).dropLast())
            }
        }
        // When each event arrived, to within a poll: (time, highest seq so far); they come in order.
        var polls: [(time: Double, highest: Int)] = []
        while !done.withLock({ $0 }) {
            polls.append((Date().timeIntervalSinceReferenceDate, sequence(subscriber.messages).max() ?? -1))
            try await Task.sleep(for: .milliseconds(10))
        }
        // Everything still queued arrives: the last event, and the health report after the drops.
        let delivered = await subscriber.wait(within: 60) { messages in
            sequence(messages).contains(total - 1) && messages.contains { $0.topic == "imu/outage/health" && !$0.payload.contains(#""events_dropped":0,"#) }
        }
        polls.append((Date().timeIntervalSinceReferenceDate, sequence(subscriber.messages).max() ?? -1))
        let backlog = publisher.backlog
        publisher.stop()
        #expect(delivered, "\(subscriber.messages.suffix(5)); log: \(logLines.withLock { $0 })")

        let seen = sequence(subscriber.messages)
        var unique: [Int] = []
        for seq in seen where !unique.contains(seq) { unique.append(seq) }
        var figures = OutageFigures()
        figures.published = total
        figures.received = unique.count
        figures.duplicates = seen.count - unique.count
        figures.dropped = backlog.dropped
        let health = subscriber.messages.last { $0.topic == "imu/outage/health" }
        figures.reportedDropped = (health.flatMap { try? JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any] })?["events_dropped"] as? Int
        let (publishTimes, lateNormal, lateOutage, backAt, tickAtBack) = timings.withLock {
            ($0.publish.sorted(), $0.lateNormal, $0.lateOutage, $0.backAt, $0.tickAtBack)
        }
        figures.publishMicroseconds = (publishTimes[publishTimes.count / 2], publishTimes[publishTimes.count * 99 / 100], publishTimes.last!)
        figures.lateTicksMilliseconds = (lateNormal * 1000, lateOutage * 1000)
        // The backlog: what was published before the broker was back and still arrives.
        let backlogLast = unique.filter { $0 <= tickAtBack }.max() ?? -1
        figures.drainSeconds = (polls.first { $0.highest >= backlogLast }?.time ?? .nan) - backAt

        // In order; the lost ones are one run (the oldest waiting when the outbox overflowed),
        // exactly as many as were counted, and the health topic says so.
        #expect(unique == unique.sorted(), "out of order: \(unique)")
        let missing = Set(0..<total).subtracting(unique).sorted()
        #expect(missing.count == figures.dropped, "\(figures); missing \(runs(missing))")
        if let first = missing.first { #expect(missing.last! - first + 1 == missing.count, "not one run: \(missing)") }
        #expect(figures.dropped > 0 && figures.reportedDropped == figures.dropped, "\(figures)")
        // No more than the outbox can hold was kept through the outage: the queue, plus what the
        // subscriber had not yet seen when the outage began.
        #expect(unique.filter { $0 >= upTicks && $0 < upTicks + outageTicks }.count <= queue, "\(figures)")
        // Publishing never waited on the broker: a blocking publish would take the outage's seconds.
        #expect(figures.publishMicroseconds.max < 1_000_000, "\(figures)")
        #expect(logLines.withLock { $0.contains { $0.contains("\(figures.dropped) events were dropped while the broker was unreachable") } })
        print("MQTT outage (\(kind), \(seconds) s, queue \(queue)): \(figures); log: \(logLines.withLock { $0 })")
        return figures
    }

    @Test func aSilentBrokerLosesOnlyWhatTheBoundedQueueDropsAndDelaysNothing() async throws {
        _ = try await outage(.silent)
    }

    @Test func aRestartedBrokerLosesOnlyWhatTheBoundedQueueDropsAndDelaysNothing() async throws {
        _ = try await outage(.restarted)
    }
}
