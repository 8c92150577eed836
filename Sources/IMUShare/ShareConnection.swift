import Foundation
import IMUFrontEnd

/// One connected client: its socket, the bytes waiting to be written to it, its subscription and
/// the thread that moves the engine's outputs into its outbox.
///
/// Two threads touch it: the server's I/O thread (requests, flushing the outbox when the socket
/// takes more) and the connection's pump (engine outputs in). Whoever appends to an empty outbox
/// writes at once, without waiting for the I/O thread; what the socket does not take waits in the
/// outbox. When the outbox is full the pump waits, the engine's queue for this client fills and
/// drops the oldest outputs, and the count reaches the client in a `lost` line before its next
/// data line. Nothing here ever blocks on the socket.
final class ShareConnection: @unchecked Sendable {
    let fd: Int32
    let number: Int
    /// Who connected (SO_PEERCRED); nil when the kernel did not say.
    let peer: PeerCredentials?
    /// When the client last sent a whole line (or connected), on the monotonic clock; I/O thread only.
    var lastRequestSeconds: Double
    private let condition = NSCondition()
    /// Bytes not yet written, from `outboxStart` on.
    private var outbox: [UInt8] = []
    private var outboxStart = 0
    private(set) var closed = false
    /// The subscription the pump reads from (replaced on every subscribe / unsubscribe).
    private var subscription: (any FeedSubscription)?
    private var pumpRunning = false
    /// The descriptor is closed by whoever ends last: `finish` or the pump.
    private var finished = false
    var streams: Set<ShareStream> = []
    var motionDivisor = 1
    var eventTypes: Set<String>?

    /// Requests read but not yet ended by a newline.
    var inbox: [UInt8] = []
    /// True while the rest of an over-long line is being thrown away.
    var discardingLongLine = false
    /// The client shut its writing side: no more requests, but it still receives.
    var readClosed = false

    let outboxLimit: Int
    private let wake: @Sendable () -> Void
    private let pumpStarted: @Sendable () -> Void
    private let pumpEnded: @Sendable () -> Void

    init(
        fd: Int32, number: Int, peer: PeerCredentials?, now: Double, outboxLimit: Int, wake: @escaping @Sendable () -> Void,
        pumpStarted: @escaping @Sendable () -> Void, pumpEnded: @escaping @Sendable () -> Void
    ) {
        self.fd = fd
        self.number = number
        self.peer = peer
        self.lastRequestSeconds = now
        self.outboxLimit = outboxLimit
        self.wake = wake
        self.pumpStarted = pumpStarted
        self.pumpEnded = pumpEnded
    }

    var pendingBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return outbox.count - outboxStart
    }

    /// Queues a control line (replies and errors): always accepted; the I/O thread stops reading
    /// a client's requests while its outbox is over the limit, so these cannot pile up.
    func sendControl(_ line: String) {
        condition.lock()
        defer { condition.unlock() }
        appendLocked(Array((line + "\n").utf8))
    }

    /// Queues data lines from `from`; waits while the outbox is full. False when the line was not
    /// queued (the connection closed, or the subscription was replaced meanwhile).
    /// Queues a data line (the feed's shared text, copied once into the outbox with its
    /// newline), told after a `lost` line when the engine dropped some before it.
    func sendData(_ line: String, lostBefore: Int, from: any FeedSubscription) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed, subscription === from, outbox.count - outboxStart >= outboxLimit { condition.wait() }
        guard !closed, subscription === from else { return false }
        var bytes = [UInt8]()
        if lostBefore > 0 { bytes += ShareReply.lost(lostBefore).utf8; bytes.append(0x0A) }
        bytes.reserveCapacity(bytes.count + line.utf8.count + 1)
        bytes += line.utf8
        bytes.append(0x0A)
        appendLocked(bytes)
        return true
    }

    private func appendLocked(_ bytes: [UInt8]) {
        guard !closed else { return }
        let wasEmpty = outbox.count == outboxStart
        outbox.append(contentsOf: bytes)
        if wasEmpty {
            if !writeLocked() { return }
            if outbox.count > outboxStart { wake() }
        }
    }

    /// Writes what the socket takes now. False when the socket failed (the connection is then closed).
    @discardableResult
    private func writeLocked() -> Bool {
        while outboxStart < outbox.count {
            let written = outbox.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + outboxStart, outbox.count - outboxStart, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written > 0 {
                outboxStart += written
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            closeLocked()
            return false
        }
        if outboxStart == outbox.count {
            outbox.removeAll(keepingCapacity: outbox.capacity <= 65536)
            outboxStart = 0
        } else if outboxStart > 65536 {
            outbox.removeFirst(outboxStart)
            outboxStart = 0
        }
        condition.broadcast()
        return true
    }

    /// The I/O thread saw the socket writable. False when it failed.
    func flush() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        return writeLocked()
    }

    /// Replaces the subscription (nil: none) and starts the pump at the first one.
    func subscribe(_ feed: any Feed, capacity: Int) {
        let request = FeedRequest(streams: streams, capacity: capacity, motionDivisor: motionDivisor, eventTypes: eventTypes)
        let fresh: (any FeedSubscription)? = streams.isEmpty ? nil : feed.subscribe(request)
        condition.lock()
        let old = subscription
        let wasClosed = closed
        subscription = wasClosed ? nil : fresh
        let startPump = subscription != nil && !pumpRunning
        if startPump { pumpRunning = true }
        condition.broadcast()
        condition.unlock()
        old?.cancel()
        if wasClosed { fresh?.cancel() }
        if startPump {
            pumpStarted()
            let thread = Thread { [self] in pump() }
            thread.name = "imu-share-client-\(number)"
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    /// The pump: engine outputs → outbox, a `lost` line first when the engine dropped some.
    private func pump() {
        while true {
            condition.lock()
            while !closed, subscription == nil { condition.wait() }
            guard !closed, let current = subscription else {
                pumpRunning = false
                if finished { Glibc.close(fd) }
                condition.broadcast()
                condition.unlock()
                pumpEnded()
                return
            }
            condition.unlock()
            guard let (output, lost) = current.next(timeoutSeconds: 0.5) else { continue }
            _ = sendData(output.jsonLine, lostBefore: lost, from: current)
        }
    }

    /// Ends the connection: the subscription is cancelled, the pump ends, the socket closes.
    func close() {
        condition.lock()
        closeLocked()
        condition.unlock()
    }

    private func closeLocked() {
        guard !closed else { return }
        closed = true
        let old = subscription
        subscription = nil
        condition.broadcast()
        old?.cancel()
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// After `close`: the descriptor is closed now, or by the pump as it ends (never blocks;
    /// the number stays taken until then, so no new connection can be confused with this one).
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        guard !finished else { return }
        finished = true
        if !pumpRunning { Glibc.close(fd) }
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
