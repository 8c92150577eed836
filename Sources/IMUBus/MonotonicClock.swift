/// Where timestamps come from: seconds on a monotonic clock (CLOCK_MONOTONIC on Linux, the
/// twin's virtual time in tests). Drivers stamp samples with it as close to the read as they can.
public protocol MonotonicClock: AnyObject {
    /// Seconds since an arbitrary fixed point; never goes backwards.
    var now: Double { get }
    /// Waits `seconds` (real time on Linux; the twin advances its virtual time instead).
    func sleep(seconds: Double)
}
