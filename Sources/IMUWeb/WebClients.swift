import Foundation
import HummingbirdWebSocket
import IMUFrontEnd
import IMUShareClient
import NIOCore

/// The WebSocket clients: how many there are (a slot is reserved at the upgrade, so the limit
/// holds when many connect at once), and the daemon's own lines (rule firings, calibration)
/// handed to those who subscribed.
final class WebClients: @unchecked Sendable {
    private let lock = NSLock()
    private var reserved = 0
    private var sessions: [ObjectIdentifier: WebClient] = [:]

    var count: Int { lock.withLock { reserved } }

    /// Takes a slot when fewer than `limit` are taken.
    func reserve(limit: Int) -> Bool {
        lock.withLock {
            guard reserved < limit else { return false }
            reserved += 1
            return true
        }
    }

    func add(_ client: WebClient) { lock.withLock { sessions[ObjectIdentifier(client)] = client } }

    func remove(_ client: WebClient) {
        lock.withLock {
            if sessions.removeValue(forKey: ObjectIdentifier(client)) != nil { reserved -= 1 }
        }
    }

    /// A slot reserved at an upgrade that never became a session (the handshake failed).
    func release() { lock.withLock { reserved -= 1 } }

    func broadcast(_ line: String, to stream: WebStream) {
        for client in lock.withLock({ Array(sessions.values) }) where client.wants(stream) { client.send(line) }
    }

    func closeAll() {
        for client in lock.withLock({ Array(sessions.values) }) { client.close() }
    }
}

/// One WebSocket client: its subscription to the engine (pumped by its own thread, since a
/// subscription blocks), the daemon's streams it asked for, and the lines waiting to be written.
/// A client that does not read loses lines (counted, told as `{"type":"lost","count":N}` before the next line, as on the local socket
/// it gets); it never slows the engine or the other clients.
final class WebClient: @unchecked Sendable {
    static let queueLimit = 256

    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let feed: any Feed
    private let lock = NSLock()
    private var subscription: (any FeedSubscription)?
    private var daemonStreams: Set<WebStream> = []
    private var engineStreams: Set<WebStream> = []
    private var motionRate: MotionRate?
    private var eventTypes: Set<String>?
    private var lost = 0
    private var closed = false

    init(feed: any Feed) {
        self.feed = feed
        (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(Self.queueLimit))
    }

    func wants(_ stream: WebStream) -> Bool { lock.withLock { daemonStreams.contains(stream) } }

    /// Queues a line; when the queue is full the oldest goes, and the loss is told.
    func send(_ line: String, lostBefore: Int = 0) {
        let pending = lock.withLock { () -> Int in
            lost += lostBefore
            defer { lost = 0 }
            return lost
        }
        if pending > 0 { enqueue("{\"type\":\"lost\",\"count\":\(pending)}") }
        enqueue(line)
    }

    private func enqueue(_ line: String) {
        if case .dropped = continuation.yield(line) { lock.withLock { lost += 1 } }
    }

    /// A request from the client, answered with `{"error": …}` when it is not one.
    func handle(_ text: String) {
        switch ClientRequest.parse(text) {
        case .failure(let problem):
            send(JSONText.error(problem.message))
        case .success(let request):
            switch request.action {
            case .subscribe(let streams, let rate, let types):
                lock.withLock {
                    daemonStreams.formUnion(streams.filter { $0 == .rules || $0 == .calibration })
                    engineStreams.formUnion(streams.filter { $0 != .rules && $0 != .calibration })
                    if let rate { motionRate = rate }
                    if streams.contains(.events) { eventTypes = types }
                }
            case .unsubscribe(let streams):
                lock.withLock {
                    daemonStreams.subtract(streams)
                    engineStreams.subtract(streams)
                }
            }
            resubscribe()
        }
    }

    /// Replaces the engine subscription with one for the streams asked now (none: the chip may sleep).
    private func resubscribe() {
        let (old, streams, divisor, types) = lock.withLock { () -> ((any FeedSubscription)?, Set<WebStream>, Int, Set<String>?) in
            let old = subscription
            subscription = nil
            let divisor = motionRate?.divisor(engineRateHz: feed.info.rateHz) ?? 1
            return (old, engineStreams, divisor, eventTypes)
        }
        old?.cancel()
        guard !streams.isEmpty else { return }
        let new = feed.subscribe(FeedRequest(streams: streams, capacity: 512, motionDivisor: divisor, eventTypes: types))
        let keep = lock.withLock { () -> Bool in
            guard !closed else { return false }
            subscription = new
            return true
        }
        guard keep else { return new.cancel() }
        let thread = Thread { [weak self] in
            while let (output, lost) = new.next(timeoutSeconds: nil) {
                guard let self else { break }
                self.send(output.jsonLine, lostBefore: lost)
            }
        }
        thread.name = "imu-web-client"
        thread.start()
    }

    /// Ends the subscription (its thread ends with it) and the line queue.
    func close() {
        let old = lock.withLock { () -> (any FeedSubscription)? in
            closed = true
            defer { subscription = nil }
            return subscription
        }
        old?.cancel()
        continuation.finish()
    }
}

extension Dashboard {
    /// One WebSocket connection: the hello line, then the lines the client subscribed to, while
    /// its requests are read (each at most `maxMessageBytes`, in one frame or many; a larger one
    /// closes the connection with 1009, message too big). Throws what ended the reading, so
    /// the WebSocket layer closes with its code (1009, 1002, …) rather than 1000.
    func serveWebSocket(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let client = WebClient(feed: feed)
        clients.add(client)
        defer {
            client.close()
            clients.remove(client)
        }
        client.send(helloLine)
        if let running = calibration.lastLine { client.send(running) }
        let ending = EndingError()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await line in client.lines {
                    do { try await outbound.write(.text(line)) } catch { break }
                }
            }
            group.addTask { [settings] in
                do {
                    for try await message in inbound.messages(maxSize: settings.maxMessageBytes) {
                        switch message {
                        case .text(let text): client.handle(text)
                        case .binary: client.send(JSONText.error("requests are JSON text messages"))
                        }
                    }
                } catch {
                    // Too big, not a valid frame, or the connection broke: the connection ends.
                    ending.set(error)
                }
                client.close()
            }
        }
        if let error = ending.error { throw error }
    }
}

/// The error that ended a WebSocket's reading, handed from its task to the connection's.
final class EndingError: @unchecked Sendable {
    private let lock = NSLock()
    private var _error: (any Error)?
    func set(_ error: any Error) { lock.withLock { _error = error } }
    var error: (any Error)? { lock.withLock { _error } }
}
