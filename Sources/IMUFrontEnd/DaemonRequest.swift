import Foundation

/// Something asked of the daemon from another thread (an MQTT command) and carried out by the
/// daemon's own loop, which polls `take()` between samples or batches and answers with
/// `answer(_:)`. The asker waits for the answer, at most a deadline; a request nobody took by
/// then is withdrawn, so the daemon never acts on a question whose asker has given up.
public final class DaemonRequest<Answer: Sendable>: @unchecked Sendable {
    // @unchecked: every field is guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var asked = false
    private var generation = 0
    private var lastAnswer: Answer?

    public init() {}

    /// Asks and waits at most `timeout` seconds; nil when the daemon did not answer in time.
    public func ask(timeout: Double) -> Answer? {
        condition.lock()
        defer { condition.unlock() }
        asked = true
        let before = generation
        let deadline = Date().addingTimeInterval(timeout)
        while generation == before && Date() < deadline { _ = condition.wait(until: deadline) }
        guard generation != before else {
            // Not taken yet: withdrawn. Taken: the answer that comes is nobody's.
            asked = false
            return nil
        }
        return lastAnswer
    }

    /// True once per request: the daemon then does it and calls `answer`.
    public func take() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard asked else { return false }
        asked = false
        return true
    }

    public func answer(_ answer: Answer) {
        condition.lock()
        lastAnswer = answer
        generation += 1
        condition.broadcast()
        condition.unlock()
    }
}
