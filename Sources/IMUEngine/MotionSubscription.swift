import Foundation
import IMUEvents

/// A subscriber on another thread (a socket client, MQTT, a web page): a bounded queue the
/// engine fills without ever waiting. When it is full the oldest output is dropped and counted,
/// and the count is handed over with the next output taken, so a slow subscriber loses lines
/// (and knows how many), never slows acquisition or the other subscribers.
public final class MotionSubscription: @unchecked Sendable {
    public let streams: Set<MotionStream>
    public let capacity: Int
    /// Every n-th device motion (1: all).
    public let motionDivisor: Int
    /// Only these event types (`MotionEvent.type`); nil: all.
    public let eventTypes: Set<String>?
    /// `streams` as `MotionStream.bit`s.
    let streamBits: UInt8
    /// Whether the subscriber takes JSON lines (`nextLine`): the engine builds them as it queues.
    let takesLines: Bool

    private let condition = NSCondition()
    private var queue: [MotionOutput?]
    /// Each queued output's line, when the engine built it (shared with the other subscribers).
    private var lines: [String?]
    private var head = 0
    private var count = 0
    private var lostTotal = 0
    private var lostSinceTaken = 0
    private var ended = false
    private var motionsSeen = 0
    /// Told (once) when the subscriber cancels: the engine lets go of it.
    var onCancel: (() -> Void)?

    init(streams: Set<MotionStream>, capacity: Int, motionDivisor: Int, eventTypes: Set<String>?, lines: Bool = false) {
        self.streams = streams
        takesLines = lines
        streamBits = MotionStream.bits(streams)
        self.capacity = max(1, capacity)
        self.motionDivisor = max(1, motionDivisor)
        self.eventTypes = eventTypes
        queue = Array(repeating: nil, count: self.capacity)
        self.lines = Array(repeating: nil, count: lines ? self.capacity : 0)
    }

    /// Outputs dropped so far because the subscriber was behind.
    public var lost: Int { condition.withLock { lostTotal } }

    /// Whether it has been cancelled or the engine has ended.
    public var isEnded: Bool { condition.withLock { ended && count == 0 } }

    /// Whether this subscriber wants `output` (streams, divisor, event types). Engine thread only.
    func wants(_ output: MotionOutput) -> Bool {
        guard streamBits & output.stream.bit != 0 else { return false }
        switch output {
        case .motion:
            motionsSeen += 1
            return (motionsSeen - 1) % motionDivisor == 0
        case .event(let event):
            return eventTypes?.contains(event.type) ?? true
        default:
            return true
        }
    }

    /// Queues `output`, dropping the oldest when full. Never blocks for longer than the lock.
    func offer(_ output: MotionOutput, line: String? = nil) {
        condition.withLock {
            guard !ended else { return }
            if count == capacity {
                head = (head + 1) % capacity
                count -= 1
                lostTotal += 1
                lostSinceTaken += 1
            }
            queue[(head + count) % capacity] = output
            if takesLines { lines[(head + count) % capacity] = line }
            count += 1
            condition.signal()
        }
    }

    /// Blocks until the next output or the timeout (nil: none); nil when the engine has ended or
    /// the subscription was cancelled (and everything queued has been taken) or on timeout.
    /// `lostBefore`: outputs dropped since the previous one taken.
    public func next(timeoutSeconds: Double? = nil) -> (output: MotionOutput, lostBefore: Int)? {
        take(timeoutSeconds: timeoutSeconds).map { ($0.output, $0.lostBefore) }
    }

    /// As `next`, with the output's JSON line (`MotionOutput.jsonLine`): the one the engine built
    /// for every subscriber that takes lines (`subscribe(…, lines: true)`), else built here.
    public func nextLine(timeoutSeconds: Double? = nil) -> (output: MotionOutput, line: String, lostBefore: Int)? {
        guard let taken = take(timeoutSeconds: timeoutSeconds) else { return nil }
        return (taken.output, taken.line ?? taken.output.jsonLine, taken.lostBefore)
    }

    private func take(timeoutSeconds: Double?) -> (output: MotionOutput, line: String?, lostBefore: Int)? {
        let deadline = timeoutSeconds.map { Date(timeIntervalSinceNow: $0) }
        condition.lock()
        defer { condition.unlock() }
        while count == 0 {
            if ended { return nil }
            if let deadline {
                if !condition.wait(until: deadline) && count == 0 { return nil }
            } else {
                condition.wait()
            }
        }
        let output = queue[head]!
        queue[head] = nil
        var line: String?
        if takesLines {
            line = lines[head]
            lines[head] = nil
        }
        head = (head + 1) % capacity
        count -= 1
        let lost = lostSinceTaken
        lostSinceTaken = 0
        return (output, line, lost)
    }

    /// Stops the deliveries; a `next` waiting returns nil.
    public func cancel() {
        let tell: (() -> Void)? = condition.withLock {
            guard !ended else { return nil }
            ended = true
            count = 0
            condition.broadcast()
            return onCancel
        }
        tell?()
    }

    /// The engine has ended: what is queued can still be taken, then `next` returns nil.
    func end() {
        condition.withLock {
            ended = true
            condition.broadcast()
        }
    }
}
