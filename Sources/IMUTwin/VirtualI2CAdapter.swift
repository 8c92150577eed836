import IMUBus

/// The twin's bus as the kernel lists its adapters, for tests of an adapter that goes away (a
/// USB adapter unplugged): `open()` gives a handle (a descriptor, `sim/i2c-N`); `remove(for:)`
/// takes the adapter away for a while, after which it comes back, possibly under another
/// number. As with the kernel, a handle opened before a removal fails every transfer for good
/// (ENODEV), even once the adapter is back: only a handle opened again works.
///
/// It is the locator `ReopeningI2CBus` asks. Thread-safe under the bus's `TwinLock`.
public final class VirtualI2CAdapter: I2CAdapterLocator, @unchecked Sendable {
    public let bus: VirtualI2CBus
    private var number: Int
    /// Bumped at each removal: handles of an older generation are dead.
    private var generation = 0
    private var away: (until: Double, number: Int)?
    /// Handles opened so far (the first included).
    public private(set) var opens = 0

    public init(bus: VirtualI2CBus, number: Int = 1) {
        self.bus = bus
        self.number = number
    }

    /// The adapter's number now (N in `sim/i2c-N`).
    public var currentNumber: Int { bus.lock.withLock { settle(); return number } }

    /// Takes the adapter away now; it is back `duration` seconds later (on the bus's clock) as
    /// number `comesBackAs` (the same number when nil).
    public func remove(for duration: Double, comesBackAs: Int? = nil) {
        bus.lock.withLock {
            generation += 1
            away = (bus.clock.now + duration, comesBackAs ?? number)
        }
    }

    /// A new handle on the adapter; nil while it is away.
    public func open() -> VirtualI2CHandle? {
        bus.lock.withLock {
            settle()
            guard away == nil else { return nil }
            opens += 1
            return VirtualI2CHandle(adapter: self, generation: generation, name: "sim/i2c-\(number)")
        }
    }

    /// Called with the lock held: brings the adapter back when its time away is over.
    private func settle() {
        if let away, bus.clock.now >= away.until {
            number = away.number
            self.away = nil
        }
    }

    /// Whether a handle of `generation` still reaches the adapter (lock held).
    func isLive(_ generation: Int) -> Bool {
        settle()
        return generation == self.generation && away == nil
    }

    // MARK: I2CAdapterLocator

    public var adapterDescription: String { "sim/i2c-\(currentNumber) (virtual adapter)" }

    public func isStillAttached(_ bus: any I2CBus) -> Bool {
        guard let handle = bus as? VirtualI2CHandle else { return false }
        return self.bus.lock.withLock { isLive(handle.generation) }
    }

    public func reopen() -> (any I2CBus)? { open() }
}

/// A descriptor on a `VirtualI2CAdapter`: the twin's bus while the adapter it was opened on is
/// there, ENODEV for good once that adapter has been removed.
public final class VirtualI2CHandle: I2CBus, @unchecked Sendable {
    public let name: String
    let generation: Int
    private let adapter: VirtualI2CAdapter

    init(adapter: VirtualI2CAdapter, generation: Int, name: String) {
        self.adapter = adapter
        self.generation = generation
        self.name = name
    }

    private func live(_ address: UInt8) throws(I2CError) -> VirtualI2CBus {
        let ok = adapter.bus.lock.withLock { adapter.isLive(generation) }
        // What LinuxI2CBus says of a dead descriptor's ENODEV in a transfer.
        guard ok else { throw I2CError(.noAcknowledge, bus: name, address: address, detail: "ENODEV: No such device") }
        return adapter.bus
    }

    public func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try live(address).transaction(address, operations)
    }
}
