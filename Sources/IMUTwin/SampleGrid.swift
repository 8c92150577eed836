/// A chip's output data rate in virtual time: sample n falls at n / rate. Every emulator catches
/// up on the same grid: the samples due since the last one made, no more than the newest
/// `limit` of them after a long gap (older ones would have been overwritten before anyone read
/// them, and making them would cost the host for nothing).
enum SampleGrid {
    /// The ticks due after `lastTick` up to `time` at `rateHz`, and whether older ones were
    /// skipped to keep at most `limit`; nil when none is due.
    static func due(after lastTick: Int64, at time: Double, rateHz: Double, limit: Int64) -> (first: Int64, last: Int64, skipped: Bool)? {
        let target = Int64((time * rateHz).rounded(.down))
        guard target > lastTick else { return nil }
        let first = max(lastTick + 1, target - limit + 1)
        return (first, target, first > lastTick + 1)
    }
}
