// A hosted system's recovery (a USB I²C adapter unplugged and plugged in again): not part of
// the Embedded Swift build of this module, like ReacquiringGPIOChip. On a microcontroller the
// bus does not go away, and the wrapper's messages format strings.
#if !hasFeature(Embedded)
/// Where a bus's adapter is, for `ReopeningI2CBus`: whether an open bus is still on the adapter
/// it was opened on, and how to open that adapter again once it is back (by its name: a USB
/// adapter unplugged and replugged can come back under another number).
public protocol I2CAdapterLocator: AnyObject {
    /// The adapter in words, for messages (`/dev/i2c-1 (i2c-tiny-usb at bus 001 device 007)`).
    var adapterDescription: String { get }
    /// Whether `bus` (opened by this locator) still talks to a present adapter. Called only
    /// after a transfer has failed, so it may look at the file system.
    func isStillAttached(_ bus: any I2CBus) -> Bool
    /// Opens the adapter again wherever it is now; nil while it is away (or cannot be opened
    /// yet): the next transfer tries again.
    func reopen() -> (any I2CBus)?
}

/// The adapter under a `ReopeningI2CBus` went away (a USB adapter unplugged, its driver
/// unloaded). Not a wire fault but the adapter's: told once through the bus's `note`, held in
/// its `removal` until the adapter is back, and thrown through the bus protocol as `busError`.
public struct I2CAdapterRemoved: Error, Sendable, Equatable, CustomStringConvertible {
    /// The adapter in words (`/dev/i2c-1 (i2c-tiny-usb at bus 001 device 007)`).
    public var adapter: String
    /// The failed transfer that showed the removal (the dead descriptor's ENODEV).
    public var wireError: I2CError

    public init(adapter: String, wireError: I2CError) {
        self.adapter = adapter
        self.wireError = wireError
    }

    private var cause: String { wireError.detail.map { " (\($0))" } ?? "" }
    private static let recovery = "plug it back in; it is reopened when it comes back, found by its name"

    public var description: String {
        "the I²C adapter \(adapter) was removed\(cause): \(Self.recovery)"
    }

    /// What a transfer on the bus throws while the adapter is away: embedded-hal's `Other`
    /// ("the original error may contain more information"), its detail this removal.
    public var busError: I2CError {
        I2CError(.other, bus: adapter, address: wireError.address, detail: "the adapter was removed\(cause); \(Self.recovery)")
    }
}

/// A bus that survives its adapter going away. A descriptor on a removed adapter fails every
/// transfer for good, even once the adapter is back, and while it is open the kernel cannot
/// finish removing the adapter. So when a transfer fails and the adapter is no longer the one
/// opened, the bus is closed (the failure is said as the adapter's removal,
/// `I2CAdapterRemoved`) and each later transfer first tries to find and open the adapter
/// again; the acquisition loop above retries every 50 ms (an outage like any failed
/// transfer) and reconfigures the chip once it answers.
///
/// Each removal is counted (`removals`) and told once through `note`, as is each reopening.
/// Not `Sendable`, like the buses it wraps.
public final class ReopeningI2CBus: I2CBus {
    private var bus: (any I2CBus)?
    private let locator: any I2CAdapterLocator
    /// The adapter's removals seen so far, and its reopenings.
    public private(set) var removals = 0
    public private(set) var reopenings = 0
    /// Told when the adapter is found removed and when it is opened again.
    public var note: (String) -> Void = { _ in }
    private var lastName: String
    /// The adapter's removal while it is away (nil while it is open); its `busError` is what
    /// every transfer throws until the adapter is back (the loop above tells an outage once,
    /// and again only when its words change).
    public private(set) var removal: I2CAdapterRemoved?

    public init(_ bus: any I2CBus, locator: any I2CAdapterLocator) {
        self.bus = bus
        self.locator = locator
        lastName = bus.name
    }

    /// The bus as it is now named (`/dev/i2c-3` after the adapter came back as number 3).
    public var name: String { bus?.name ?? lastName }

    /// Whether the adapter is open now (false between its removal and its return).
    public var isOpen: Bool { bus != nil }

    private func current() throws(I2CError) -> any I2CBus {
        if let bus { return bus }
        guard let reopened = locator.reopen() else {
            // The bus is closed only on a removal, so there is one to say.
            throw removal?.busError ?? I2CError(.other, bus: lastName, detail: "the adapter is not open")
        }
        bus = reopened
        removal = nil
        reopenings += 1
        let renamed = reopened.name == lastName ? "" : " (was \(lastName))"
        lastName = reopened.name
        note("the I²C adapter is back as \(reopened.name)\(renamed); reopened")
        return reopened
    }

    /// Runs `transfer` on the open bus; a failure on an adapter that has gone closes the bus.
    private func perform<Result>(_ transfer: (any I2CBus) throws(I2CError) -> Result) throws(I2CError) -> Result {
        let bus = try current()
        do {
            return try transfer(bus)
        } catch {
            guard !locator.isStillAttached(bus) else { throw error }
            self.bus = nil  // closes the descriptor, so the kernel can finish removing the adapter
            removals += 1
            let removed = I2CAdapterRemoved(adapter: locator.adapterDescription, wireError: error)
            removal = removed
            note("\(removed) (removal \(removals))")
            throw removed.busError
        }
    }

    public func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try perform { (bus) throws(I2CError) in try bus.transaction(address, operations) }
    }

    /// The open bus's limit (none while the adapter is away: nothing is read then).
    public var longestRead: Int { bus?.longestRead ?? Int.max }

    public func isPresent(_ address: UInt8) throws(I2CError) -> Bool {
        try perform { (bus) throws(I2CError) in try bus.isPresent(address) }
    }
}

extension ReopeningI2CBus: ClaimedAddressReporting {
    /// The open bus's answer (nothing is claimed while the adapter is away).
    public func claim(of address: UInt8) -> String? {
        (bus as? any ClaimedAddressReporting)?.claim(of: address)
    }
}
#endif
