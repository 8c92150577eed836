/// Timestamps for a FIFO batch, reconstructed from the data rate. The chip's clock is steady
/// and the host's read time jitters, so a batch continues the previous one a period after its
/// last sample; it is anchored to the read time (newest sample = now) only at the start, after
/// a gap, or when continuing would put samples in the future or more than two periods behind.
struct FIFOTimestamps {
    let first: Double
    let period: Double

    init(newest now: Double, count: Int, period: Double, previous: Double?) {
        self.period = period
        if let previous {
            let continued = previous + period
            let newest = continued + Double(count - 1) * period
            if newest <= now + period / 2 && newest >= now - 2 * period {
                first = continued
                return
            }
        }
        first = now - Double(count - 1) * period
    }

    @inline(__always)
    subscript(index: Int) -> Double { first + Double(index) * period }
}

/// What a driver remembers between FIFO drains: when it last drained (to count what an
/// overflow lost) and the last sample's timestamp (to continue the next batch from it).
struct FIFOBookkeeping {
    private var lastDrain: Double?
    private var lastTimestamp: Double?

    /// The FIFO was (re)started empty at `now`.
    mutating func start(at now: Double?) {
        lastDrain = now
        lastTimestamp = nil
    }

    /// An overflow was found at `now`: the samples produced since the last drain, less the
    /// `kept` ones still in the FIFO, were lost; the timestamp chain is broken.
    mutating func overflowed(at now: Double, period: Double, kept: Int) -> Int {
        let produced = lastDrain.map { Int(((now - $0) / period).rounded()) } ?? 0
        lastDrain = now
        lastTimestamp = nil
        return max(0, produced - kept)
    }

    /// Timestamps for `count` samples drained at `now` (count > 0).
    mutating func drained(_ count: Int, at now: Double, period: Double) -> FIFOTimestamps {
        let timestamps = FIFOTimestamps(newest: now, count: count, period: period, previous: lastTimestamp)
        lastDrain = now
        lastTimestamp = timestamps[count - 1]
        return timestamps
    }

    mutating func drainedNothing(at now: Double) {
        lastDrain = now
    }
}
