/// Timestamps for a FIFO batch, reconstructed from the data rate: the newest sample is stamped
/// with the time of the read, the others one period apart before it, and a batch never starts
/// at or before the previous batch's last sample (the read time jitters; the chip's clock does not).
struct FIFOTimestamps {
    let first: Double
    let period: Double

    init(newest: Double, count: Int, period: Double, previous: Double?) {
        var first = newest - Double(count - 1) * period
        if let previous, first <= previous { first = previous + period }
        self.first = first
        self.period = period
    }

    @inline(__always)
    subscript(index: Int) -> Double { first + Double(index) * period }
}
