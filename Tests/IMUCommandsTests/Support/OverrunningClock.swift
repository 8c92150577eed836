import IMUBus
import Synchronization

/// Virtual time whose sleeps overrun the way a real clock's do: each `sleep` advances by the
/// time asked plus a drawn lateness (mostly 0.05–2 ms; one in twenty up to 15 ms, a busy
/// machine), so the driver drains the FIFO at uneven moments and stamps its batches as it
/// does on the real clock. Deterministic: the lateness comes from `seed`.
final class OverrunningClock: MonotonicClock, Sendable {
    private let state: Mutex<(seconds: Double, draw: UInt64)>

    init(seed: UInt64, start: Double = 0) {
        state = Mutex((start, seed))
    }

    var now: Double { state.withLock { $0.seconds } }

    func sleep(seconds delta: Double) {
        state.withLock { s in
            let late = Self.uniform(&s.draw) < 0.05 ? 0.015 * Self.uniform(&s.draw) : 0.00005 + 0.00195 * Self.uniform(&s.draw)
            s.seconds += max(0, delta) + late
        }
    }

    /// Moves time forward by `delta` seconds exactly (the board's start before the engine's).
    func advance(by delta: Double) {
        state.withLock { $0.seconds += max(0, delta) }
    }

    /// SplitMix64, uniform in (0, 1).
    private static func uniform(_ state: inout UInt64) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (Double((z ^ (z >> 31)) >> 11) + 0.5) / 9_007_199_254_740_992.0
    }
}
