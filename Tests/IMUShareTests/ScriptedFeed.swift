import Foundation
import IMUEvents
import IMUFrontEnd
@testable import IMUShare

/// A feed whose outputs the test publishes, with the engine's subscription rules (streams,
/// motion divisor, event types, bounded queue dropping the oldest and counting): the socket
/// server's tests choose exactly what the engine says and when.
final class ScriptedFeed: Feed, @unchecked Sendable {
    let info: FeedInfo
    private let lock = NSLock()
    private var subscriptions: [ScriptedSubscription] = []

    init(info: FeedInfo = FeedInfo(chip: "LSM9DS1", board: "sense-hat", bus: "twin", rateHz: 100, magnetometer: true)) {
        self.info = info
    }

    func subscribe(_ request: FeedRequest) -> any FeedSubscription {
        let subscription = ScriptedSubscription(request: request)
        lock.lock()
        subscriptions.append(subscription)
        lock.unlock()
        return subscription
    }

    /// Live (not cancelled) subscriptions.
    var subscriberCount: Int {
        lock.lock()
        defer { lock.unlock() }
        subscriptions.removeAll { $0.isCancelled }
        return subscriptions.count
    }

    func publish(_ output: FeedOutput) {
        lock.lock()
        let all = subscriptions
        lock.unlock()
        for subscription in all { subscription.offer(output) }
    }

    /// Waits (real time, bounded) until `condition` holds.
    func wait(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end { return false }
            usleep(2000)
        }
        return true
    }
}

final class ScriptedSubscription: FeedSubscription, @unchecked Sendable {
    let request: FeedRequest
    private let condition = NSCondition()
    private var queue: [FeedOutput] = []
    private var dropped = 0
    private var cancelled = false
    private var motionCount = 0

    init(request: FeedRequest) { self.request = request }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    func offer(_ output: FeedOutput) {
        guard request.streams.contains(output.stream) else { return }
        condition.lock()
        defer { condition.unlock() }
        if output.stream == .motion {
            motionCount += 1
            if (motionCount - 1) % request.motionDivisor != 0 { return }
        }
        if output.stream == .events, let types = request.eventTypes, let event = output.event, !types.contains(event.type) { return }
        if queue.count >= request.capacity {
            queue.removeFirst()
            dropped += 1
        }
        queue.append(output)
        condition.signal()
    }

    func next(timeoutSeconds: Double?) -> (output: FeedOutput, lostBefore: Int)? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeoutSeconds.map { Date().addingTimeInterval($0) }
        while queue.isEmpty, !cancelled {
            if let deadline {
                if !condition.wait(until: deadline) { return nil }
            } else {
                condition.wait()
            }
        }
        guard !cancelled else { return nil }
        let lost = dropped
        dropped = 0
        return (queue.removeFirst(), lost)
    }

    var ended: Bool { isCancelled }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
