import IMUDrivers

/// The update intervals a chip can serve: no faster than its fastest output data rate, and no
/// slower than once a second (slower than that the loop's outage detection would lag).
enum UpdateInterval {
    static let defaultSeconds = 0.01
    static let longestSeconds = 1.0

    /// The fastest output rate of `chip`'s accel/gyro, Hz (its data-rate tables' top entries).
    static func fastestRateHz(of chip: ChipModel) -> Double {
        chip.part.fastestRateHz
    }

    /// `seconds` within what `chip` can do.
    static func clamped(_ seconds: Double, for chip: ChipModel) -> Double {
        guard seconds.isFinite else { return defaultSeconds }
        return min(max(seconds, 1 / fastestRateHz(of: chip)), longestSeconds)
    }
}
