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
