#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IMUBus

/// CLOCK_MONOTONIC: seconds since boot (not counting suspend), never stepped by NTP or the
/// user. The clock the kernel stamps GPIO edge events with, so samples and edges compare.
public final class LinuxMonotonicClock: MonotonicClock, Sendable {
    public init() {}

    /// `clock_gettime(CLOCK_MONOTONIC)`, in seconds.
    public var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// Sleeps `seconds` with `clock_nanosleep` on CLOCK_MONOTONIC, resuming after signals.
    public func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        sleep(untilSeconds: now + seconds)
    }

    /// Sleeps until the clock reads `deadline` (an absolute `TIMER_ABSTIME` sleep, so a loop that
    /// paces itself with it does not drift).
    public func sleep(untilSeconds deadline: Double) {
        guard deadline > 0 else { return }
        let whole = deadline.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
