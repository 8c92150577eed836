import IMUBus
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Virtual time for tests: starts at `start` seconds and moves only when told to. `sleep`
/// advances it instead of waiting, so a driver that sleeps 100 ms between polls runs at full
/// speed and sees exactly 100 ms pass.
public final class VirtualClock: MonotonicClock, Sendable {
    private let seconds: Mutex<Double>

    public init(start: Double = 0) {
        seconds = Mutex(start)
    }

    public var now: Double { seconds.withLock { $0 } }

    public func sleep(seconds delta: Double) {
        advance(by: delta)
    }

    /// Moves time forward by `delta` seconds (negative values are ignored: time is monotonic).
    public func advance(by delta: Double) {
        guard delta > 0 else { return }
        seconds.withLock { $0 += delta }
    }

    /// Moves time forward to `time` (ignored when that is in the past).
    public func advance(to time: Double) {
        seconds.withLock { $0 = max($0, time) }
    }
}

/// Real time for the `--sim` demo: seconds of CLOCK_MONOTONIC since the clock was made, so the
/// twin's samples appear at their data rate while a person watches. `sleep` really sleeps.
public final class RealTimeClock: MonotonicClock, Sendable {
    private let origin: Double

    public init() {
        origin = RealTimeClock.monotonicSeconds()
    }

    public var now: Double { RealTimeClock.monotonicSeconds() - origin }

    public func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }

    private static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
