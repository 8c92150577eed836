import IMUDrivers

/// The update intervals a chip can serve: no faster than its fastest output data rate, and no
/// slower than once a second (slower than that the loop's outage detection would lag).
enum UpdateInterval {
    static let defaultSeconds = 0.01
    static let longestSeconds = 1.0

    /// `seconds` within what samples can come at (`fastestRateHz`: the chip's data-rate tables'
    /// top entry, or the rate of the daemon that owns the chip).
    static func clamped(_ seconds: Double, fastestRateHz: Double) -> Double {
        guard seconds.isFinite else { return defaultSeconds }
        return min(max(seconds, 1 / fastestRateHz), longestSeconds)
    }
}
