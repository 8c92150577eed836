import Synchronization

/// What ends pulses: a clock in ns and a way to run something at a time on it. The daemon uses
/// the real-time pulse thread (`PulseTimer`); tests use `ManualPulseScheduler` and move time
/// themselves, so overlap and stop-during-pulse are checked without a race.
public protocol PulseScheduler: AnyObject, Sendable {
    /// The scheduler's clock, ns.
    func now() -> Int64
    /// Runs `end` once `now()` reaches `deadline` (on the scheduler's own thread, or inside
    /// `advance` for the manual one).
    func schedule(at deadline: Int64, _ end: @escaping @Sendable () -> Void)
}

/// A pulse clock that moves only when told: `advance(byMilliseconds:)` runs, in deadline order,
/// every end that falls due (including ends scheduled by the ends it runs).
public final class ManualPulseScheduler: PulseScheduler, Sendable {
    private let state = Mutex<(now: Int64, pending: [(deadline: Int64, order: Int, end: @Sendable () -> Void)], order: Int)>((0, [], 0))

    public init() {}

    public func now() -> Int64 { state.withLock { $0.now } }

    public func schedule(at deadline: Int64, _ end: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.order += 1
            $0.pending.append((deadline, $0.order, end))
        }
    }

    /// Ends not run yet.
    public var pendingCount: Int { state.withLock { $0.pending.count } }

    public func advance(byMilliseconds milliseconds: Int) {
        let target = state.withLock { $0.now } + Int64(milliseconds) * 1_000_000
        while true {
            let due: (@Sendable () -> Void)? = state.withLock { state in
                guard let index = state.pending.indices.filter({ state.pending[$0].deadline <= target })
                    .min(by: { (state.pending[$0].deadline, state.pending[$0].order) < (state.pending[$1].deadline, state.pending[$1].order) })
                else { return nil }
                let entry = state.pending.remove(at: index)
                state.now = max(state.now, entry.deadline)
                return entry.end
            }
            guard let due else { break }
            due()
        }
        state.withLock { $0.now = target }
    }
}
