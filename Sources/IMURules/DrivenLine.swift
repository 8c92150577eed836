import Foundation
import IMUBus

/// An output line the rules drive, with the pulse semantics a relay or a buzzer needs:
///
/// - The line has a *resting level*: low at start, changed only by `set` and `toggle`.
/// - A pulse drives it to the other level and brings it back to the resting level when it
///   ends. A pulse that starts while one runs on the same line extends it (it ends at the later
///   of the two ends; the line is not flipped again), so overlapping pulses can never leave the
///   line inverted.
/// - `set` or `toggle` during a pulse end the pulse at once and change the resting level
///   (toggle flips the resting level, so the line ends at the pulse's active level: the relay
///   that was pulsed on stays on).
/// - `stop` (the daemon stopping, SIGTERM) ends any pulse at the resting level.
final class DrivenLine: @unchecked Sendable {
    // @unchecked: the fields are touched only with `lock` held.
    let line: any GPIOOutputLine
    private let lock = NSLock()
    private var resting = false
    /// When the running pulse ends (the scheduler's ns), nil when none runs.
    private var pulseEnd: Int64?
    /// Bumped whenever a pulse starts or is cut short, so a stale scheduled end does nothing.
    private var generation = 0
    /// Told on the pulse thread after a pulse ended on its own (the line back at rest).
    private var onPulseEnd: (@Sendable (any GPIOOutputLine) -> Void)?

    init(_ line: any GPIOOutputLine) {
        self.line = line
        resting = line.isHigh
    }

    var restingLevel: Bool { lock.withLock { resting } }

    func setOnPulseEnd(_ handler: (@Sendable (any GPIOOutputLine) -> Void)?) { lock.withLock { onPulseEnd = handler } }
    var isPulsing: Bool { lock.withLock { pulseEnd != nil } }

    func set(high: Bool) throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        cancelPulse()
        resting = high
        try line.set(high: high)
    }

    func toggle() throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        cancelPulse()
        resting.toggle()
        try line.set(high: resting)
    }

    func pulse(milliseconds: Int, on scheduler: any PulseScheduler) throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        let length = Int64(milliseconds) * 1_000_000
        if let running = pulseEnd {
            pulseEnd = max(running, scheduler.now() + length)
            return
        }
        try line.set(high: !resting)
        // Timed from the edge, not from before it: the set's own latency must not shorten the pulse.
        let end = scheduler.now() + length
        pulseEnd = end
        generation += 1
        schedule(generation, at: end, on: scheduler)
    }

    /// Ends a running pulse at the resting level (the daemon stopping).
    func stop() throws(GPIOError) {
        lock.lock()
        defer { lock.unlock() }
        guard pulseEnd != nil else { return }
        cancelPulse()
        try line.set(high: resting)
    }

    private func cancelPulse() {
        if pulseEnd != nil { generation += 1 }
        pulseEnd = nil
    }

    private func schedule(_ generation: Int, at deadline: Int64, on scheduler: any PulseScheduler) {
        scheduler.schedule(at: deadline) { [self] in
            var ended: (@Sendable (any GPIOOutputLine) -> Void)?
            lock.withLock {
                guard generation == self.generation, let end = pulseEnd else { return }
                if end > deadline {  // extended meanwhile: wait for the later end
                    schedule(generation, at: end, on: scheduler)
                    return
                }
                pulseEnd = nil
                // A failure here has no caller to tell; the next set or pulse reports it.
                try? line.set(high: resting)
                ended = onPulseEnd
            }
            ended?(line)
        }
    }
}
