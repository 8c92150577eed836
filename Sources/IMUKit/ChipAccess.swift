import IMUBus
import IMUCalibration
import IMUDrivers

/// The chip's driver and clock, owned by the manager. The driver is not thread-safe, so only
/// the acquisition thread uses it, and the runs follow one another (each waits for the previous
/// to end): that is what makes the unchecked Sendable sound.
final class ChipAccess: @unchecked Sendable {
    let driver: any IMUDriver
    let clock: any MonotonicClock
    /// Which chip this is (part, board, bus, address): its calibration is looked up by it.
    let identity: ChipIdentity
    /// Whatever must live as long as the manager (the twin behind a virtual bus, a Linux bus).
    let keepAlive: AnyObject?

    init(driver: any IMUDriver, clock: any MonotonicClock, identity: ChipIdentity, keepAlive: AnyObject?) {
        self.driver = driver
        self.clock = clock
        self.identity = identity
        self.keepAlive = keepAlive
    }
}
