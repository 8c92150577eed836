/// One operation of an I²C transaction (embedded-hal's `Operation`).
public enum I2COperation {
    /// Bytes to send to the target.
    case write(UnsafeRawBufferPointer)
    /// Bytes to receive from the target, as many as the buffer holds.
    case read(UnsafeMutableRawBufferPointer)
}

/// An I²C bus master, modelled on embedded-hal's `I2c` trait: one primitive, `transaction`
/// (a sequence of writes and reads to one 7-bit address: START, the operations, a repeated
/// START wherever the direction changes, STOP), and the usual calls as defaults built on it.
/// A write-then-read is one transaction (repeated start, no stop in between), which is what
/// register reads need.
///
/// Implementations: `LinuxI2CBus` (`/dev/i2c-N`), the twin's `VirtualI2CBus`, and in-memory
/// register models. Drivers are written against this protocol only, so the same driver code
/// runs on all of them. The buffers are raw pointers so the per-sample path allocates nothing.
public protocol I2CBus: AnyObject {
    /// The bus as a user names it: `/dev/i2c-1`, or `sim`.
    var name: String { get }

    /// Runs `operations` on the device at `address` as one transaction.
    func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError)

    /// The most bytes a read returns in one transaction (`Int.max`: no limit). An SMBus-only
    /// adapter reads at most 32 (one I²C block read); a longer read of consecutive registers is
    /// split by the bus, each part starting at the next register. A driver reading a port that
    /// does not advance (a FIFO) splits such reads itself, re-addressing the port each time.
    var longestRead: Int { get }

    // The calls below have defaults built on `transaction`. They are requirements (rather than
    // extension-only methods) so that a call on an existential goes through the witness table:
    // Embedded Swift (the firmware build) has no unspecialised generic code, and an extension
    // method called on `any I2CBus` would have none to run. A bus may do them more directly.

    /// Writes `bytes` to the device at `address` (START, address+W, bytes, STOP).
    func write(_ address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError)

    /// Reads `buffer.count` bytes from the device at `address` (START, address+R, bytes, STOP).
    func read(_ address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError)

    /// Writes `bytes`, then reads `buffer.count` bytes after a repeated start: one transaction.
    func writeRead(
        _ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError)

    /// Whether a device acknowledges `address`, checked the way `i2cdetect` does: a one-byte
    /// read for addresses where a write could harm (EEPROMs at 0x30–0x37 and 0x50–0x5F), a quick
    /// write elsewhere when the adapter can. Errors other than "no acknowledge" are thrown. An
    /// address another driver owns (i2cdetect's `UU`) is present.
    func isPresent(_ address: UInt8) throws(I2CError) -> Bool

    /// Reads one register: write the register address, repeated start, read one byte.
    func readRegister(_ address: UInt8, _ register: UInt8) throws(I2CError) -> UInt8

    /// Reads `buffer.count` consecutive registers starting at `register` in one transaction.
    func readRegisters(_ address: UInt8, _ register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError)

    /// Writes one register: register address then value, in one write.
    func writeRegister(_ address: UInt8, _ register: UInt8, _ value: UInt8) throws(I2CError)
}

extension I2CBus {
    /// No limit: the whole read is one transaction.
    public var longestRead: Int { Int.max }

    /// One write operation.
    public func write(_ address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        try withOperations(1) { (operations) throws(I2CError) in
            operations[0] = .write(bytes)
            try transaction(address, operations)
        }
    }

    /// One read operation.
    public func read(_ address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        try withOperations(1) { (operations) throws(I2CError) in
            operations[0] = .read(buffer)
            try transaction(address, operations)
        }
    }

    /// A write and a read in one transaction.
    public func writeRead(
        _ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        try withOperations(2) { (operations) throws(I2CError) in
            operations[0] = .write(bytes)
            operations[1] = .read(buffer)
            try transaction(address, operations)
        }
    }

    /// For buses that do writes, reads and write-then-reads only (SMBus-style adapters,
    /// in-memory register models): `operations` run when they have one of those shapes.
    public func transactionAsTransfers(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        switch operations.count {
        case 1:
            switch operations[0] {
            case .write(let bytes): return try write(address, bytes)
            case .read(let buffer): return try read(address, into: buffer)
            }
        case 2:
            if case .write(let bytes) = operations[0], case .read(let buffer) = operations[1] {
                return try writeRead(address, bytes, into: buffer)
            }
        default:
            break
        }
        // A literal: formatting the count would link the string machinery into the firmware.
        throw I2CError(.other, bus: name, address: address, detail: "this bus cannot do that transaction: only a write, a read, or a write then a read")
    }
}

/// Room for `count` operations on the stack: the per-sample path must not allocate.
@inline(__always)
func withOperations(
    _ count: Int, _ body: (UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) -> Void
) throws(I2CError) {
    let failure: I2CError? = withUnsafeTemporaryAllocation(of: I2COperation.self, capacity: count) { operations in
        do throws(I2CError) {
            try body(operations)
            return nil
        } catch {
            return error
        }
    }
    if let failure { throw failure }
}

extension I2CBus {
    /// Default presence check: a one-byte read, which is safe on every common device.
    public func isPresent(_ address: UInt8) throws(I2CError) -> Bool {
        var byte: UInt8 = 0
        do {
            try withUnsafeMutableBytes(of: &byte) { (buffer) throws(I2CError) in
                try read(address, into: buffer)
            }
            return true
        } catch where error.kind == .noAcknowledge {
            return false
        }
    }

    /// Addresses in `range` where a device is, like `i2cdetect -y N` (0x08–0x77 by default,
    /// skipping the reserved addresses). An address another driver owns (i2cdetect's `UU`) is
    /// listed too, as `isPresent` says: there is a device, even if we may not talk to it
    /// (`ClaimedAddressReporting` tells which).
    public func scan(_ range: ClosedRange<UInt8> = 0x08...0x77) throws(I2CError) -> [UInt8] {
        var found: [UInt8] = []
        for address in range {
            if try isPresent(address) { found.append(address) }
        }
        return found
    }

    /// Reads one register: write the register address, repeated start, read one byte.
    public func readRegister(_ address: UInt8, _ register: UInt8) throws(I2CError) -> UInt8 {
        var register = register
        var value: UInt8 = 0
        try withUnsafeBytes(of: &register) { (out) throws(I2CError) in
            try withUnsafeMutableBytes(of: &value) { (into) throws(I2CError) in
                try writeRead(address, out, into: into)
            }
        }
        return value
    }

    /// Reads `buffer.count` consecutive registers starting at `register` in one transaction.
    /// (Chips that need an auto-increment flag in the register address expect the caller to
    /// have set it: that is a chip fact, kept in the chip's description.)
    public func readRegisters(
        _ address: UInt8, _ register: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        var register = register
        try withUnsafeBytes(of: &register) { (out) throws(I2CError) in
            try writeRead(address, out, into: buffer)
        }
    }

    /// Reads `count` consecutive registers into a new array (for configuration, not the
    /// per-sample path).
    public func readRegisters(_ address: UInt8, _ register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        var failure: I2CError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.initialize(repeating: 0)
            initialized = count
            do throws(I2CError) {
                try readRegisters(address, register, into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes one register: register address then value, in one write.
    public func writeRegister(_ address: UInt8, _ register: UInt8, _ value: UInt8) throws(I2CError) {
        var pair: (UInt8, UInt8) = (register, value)
        try withUnsafeBytes(of: &pair) { (out) throws(I2CError) in
            try write(address, out)
        }
    }
}
