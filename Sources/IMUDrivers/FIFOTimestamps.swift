/// Timestamps for a FIFO batch, reconstructed from the data rate. The chip's clock is steady
/// and the host's read time jitters, so a batch continues the previous one a period after its
/// last sample; it is anchored to the read time (newest sample = now) only at the start, after
/// a gap, or when continuing would put samples in the future or more than two periods behind.
/// They never reach back to `after` (the last timestamp handed out): a batch holding more samples
/// than the time since then allows (a chip clock running fast, a fill level misread) is spread
/// evenly between that sample and now, so time only goes forward.
struct FIFOTimestamps {
    let first: Double
    /// Between samples: the period, or less for a batch squeezed in after `after`.
    let spacing: Double

    init(newest now: Double, count: Int, period: Double, previous: Double?, after floor: Double? = nil) {
        if let previous {
            let continued = previous + period
            let newest = continued + Double(count - 1) * period
            if newest <= now + period / 2 && newest >= now - 2 * period {
                (first, spacing) = (continued, period)
                return
            }
        }
        let anchored = now - Double(count - 1) * period
        if let floor, anchored <= floor {
            let newest = max(now, floor + period / 2)
            spacing = (newest - floor) / Double(count)
            first = floor + spacing
        } else {
            (first, spacing) = (anchored, period)
        }
    }

    @inline(__always)
    subscript(index: Int) -> Double { first + Double(index) * spacing }
}

/// What a driver remembers between FIFO drains: when it last drained (to count what an
/// overflow lost) and the last sample's timestamp (to continue the next batch from it).
struct FIFOBookkeeping {
    private var lastDrain: Double?
    private var lastTimestamp: Double?
    /// The last timestamp handed out, kept across restarts and overflows: the next never precedes it.
    private var lastDelivered: Double?

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
        let timestamps = FIFOTimestamps(
            newest: now, count: count, period: period, previous: lastTimestamp, after: lastDelivered)
        lastDrain = now
        lastTimestamp = timestamps[count - 1]
        lastDelivered = lastTimestamp
        return timestamps
    }

    mutating func drainedNothing(at now: Double) {
        lastDrain = now
    }
}
