import IMUBus
import IMUDrivers

/// The chip's driver and clock, owned by the manager. The driver is not thread-safe, so only
/// the acquisition thread uses it, and the runs follow one another (each waits for the previous
/// to end): that is what makes the unchecked Sendable sound.
final class ChipAccess: @unchecked Sendable {
    let driver: any IMUDriver
    let clock: any MonotonicClock
    /// Whatever must live as long as the manager (the twin behind a virtual bus).
    let keepAlive: AnyObject?

    init(driver: any IMUDriver, clock: any MonotonicClock, keepAlive: AnyObject?) {
        self.driver = driver
        self.clock = clock
        self.keepAlive = keepAlive
    }
}
