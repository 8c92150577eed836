import IMUBus

/// The twin's I²C bus (`name == "sim"`): targets registered by 7-bit address, each transaction
/// dispatched to its `I2CTarget` after the target has been caught up to the clock's time.
/// Counts transactions per address and in total (each `write`, `read` and `writeRead` is one,
/// failed ones included, as a bus analyser would see them), and injects `BusFault`s.
///
/// Thread-safe: every transaction runs under the board's `TwinLock`.
public final class VirtualI2CBus: I2CBus, @unchecked Sendable {
    public let name = "sim"
    public let clock: any MonotonicClock
    let lock: TwinLock

    // Unchecked: touched only with `lock` held, never by two accesses at once (the dynamic
    // exclusivity check cost more than the transaction's own bookkeeping).
    @exclusivity(unchecked) private var targets: [UInt8: any I2CTarget] = [:]
    @exclusivity(unchecked) private var counts: [UInt8: Int] = [:]
    @exclusivity(unchecked) private var total = 0
    @exclusivity(unchecked) private var faults = FaultState()

    public init(clock: any MonotonicClock, lock: TwinLock = TwinLock()) {
        self.clock = clock
        self.lock = lock
    }

    // MARK: Targets

    /// Puts `target` on the bus at `address` (replacing what was there).
    public func attach(_ target: any I2CTarget, at address: UInt8) {
        lock.withLock { targets[address] = target }
    }

    public func detach(address: UInt8) {
        lock.withLock { _ = targets.removeValue(forKey: address) }
    }

    /// The addresses with a target, ascending.
    public var addresses: [UInt8] {
        lock.withLock { targets.keys.sorted() }
    }

    public func target(at address: UInt8) -> (any I2CTarget)? {
        lock.withLock { targets[address] }
    }

    // MARK: Transaction counts

    /// Transactions addressed to `address` since the last reset.
    public func transactionCount(for address: UInt8) -> Int {
        lock.withLock { counts[address, default: 0] }
    }

    /// Transactions on the bus since the last reset.
    public var transactionCount: Int {
        lock.withLock { total }
    }

    public func resetTransactionCounts() {
        lock.withLock {
            counts = [:]
            total = 0
        }
    }

    // MARK: Faults

    public func inject(_ fault: BusFault) {
        lock.withLock {
            let now = clock.now
            switch fault {
            case let .noAcknowledge(count, address):
                faults.nackCount.append((count, address))
            case let .noAcknowledgeWindow(from, until, address):
                faults.nackWindows.append((from, until, address))
            case let .ioErrorBurst(count, address):
                faults.ioErrors.append((count, address))
            case let .stuckBus(until):
                faults.stuckUntil = .some(until)
            case let .unplug(address, duration, identity):
                faults.unplugged[address] = (now + duration, identity)
            case let .allOnesWindow(from, until, address):
                faults.allOnesWindows.append((from, until, address))
            }
        }
    }

    /// Ends every fault under way (an unplugged chip is plugged back in now, with defaults).
    public func clearFaults() {
        lock.withLock {
            let now = clock.now
            for (address, plug) in faults.unplugged {
                replug(address, at: min(now, plug.replugAt), identity: plug.identity)
            }
            faults = FaultState()
        }
    }

    /// Makes the FIFO of the chip at `address` overflow now.
    public func forceFIFOOverflow(address: UInt8) {
        lock.withLock {
            guard let target = targets[address] else { return }
            target.catchUp(to: clock.now)
            target.forceFIFOOverflow()
        }
    }

    /// Brings every target up to the clock's time (and plugs back chips whose unplug is over).
    /// Called with the lock held.
    func catchUpAll(to time: Double) {
        handleReplugs(at: time)
        for target in targets.values { target.catchUp(to: time) }
    }

    private func handleReplugs(at time: Double) {
        for (address, plug) in faults.unplugged where time >= plug.replugAt {
            replug(address, at: plug.replugAt, identity: plug.identity)
            faults.unplugged.removeValue(forKey: address)
        }
    }

    private func replug(_ address: UInt8, at time: Double, identity: UInt8?) {
        guard let target = targets[address] else { return }
        // A chip and its sibling (the LSM9DS1's two dies) share a package and its power: both
        // are reset when either address is "unplugged". Here each address is reset alone;
        // VirtualBoard unplugs all of a package's addresses together.
        target.powerOnReset(at: time)
        target.overrideIdentity(identity)
    }

    // MARK: I2CBus

    /// One transaction: faults first, then each operation on the target (a write sets its
    /// register pointer and writes on; a read reads from the pointer on).
    public func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try lock.withLock { () throws(I2CError) in
            let (target, allOnes) = try begin(address)
            for operation in operations {
                switch operation {
                case .write(let bytes):
                    if !allOnes { target.write(bytes) }
                case .read(let buffer):
                    if allOnes { buffer.initializeMemory(as: UInt8.self, repeating: 0xFF) } else { target.read(into: buffer) }
                }
            }
        }
    }

    /// The same as `transaction` with a write then a read, without the operations buffer: every
    /// register read of every twin sample comes this way.
    public func writeRead(
        _ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        try lock.withLock { () throws(I2CError) in
            let (target, allOnes) = try begin(address)
            if allOnes {
                buffer.initializeMemory(as: UInt8.self, repeating: 0xFF)
            } else {
                target.write(bytes)
                target.read(into: buffer)
            }
        }
    }

    /// A transaction's start, with the lock held: counted, faults first, the target caught up
    /// to now; whether an all-0xFF fault fills its reads instead of the target (its writes are
    /// lost too).
    private func begin(_ address: UInt8) throws(I2CError) -> (any I2CTarget, allOnes: Bool) {
        total += 1
        counts[address, default: 0] += 1
        let now = clock.now
        handleReplugs(at: now)
        if let failure = faults.failure(for: address, at: now) {
            throw I2CError(failure.kind, bus: name, address: address, detail: failure.detail)
        }
        // A target behind another chip's bypass acknowledges only while the bypass is open.
        guard let target = targets[address], target.acknowledges else {
            throw I2CError(.noAcknowledge, bus: name, address: address)
        }
        target.catchUp(to: now)
        return (target, faults.readsAllOnes(address, at: now))
    }
}
