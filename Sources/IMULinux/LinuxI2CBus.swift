#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CI2C
import IMUBus

/// An I²C bus through the kernel's i2c-dev interface: one open `/dev/i2c-N` descriptor.
///
/// On full I²C adapters every `writeRead` is one `I2C_RDWR` transaction (write message, repeated
/// start, read message), which is what register reads need. On SMBus-only adapters (PC SMBus
/// hosts, the kernel's `i2c-stub`) the same calls become SMBus transfers; see
/// `LinuxI2CBus+SMBus.swift` for what that changes.
///
/// Before talking to an address the bus claims it with `I2C_SLAVE`, so it never talks over a
/// kernel driver bound to the same chip: a transfer there fails (`.other`, naming the driver
/// and how to unbind it), `status(of:)` says `.claimed`, and `claim(of:)` says who.
///
/// Not `Sendable`: the descriptor and the cached target address belong to one thread at a time.
public final class LinuxI2CBus: I2CBus, ClaimedAddressReporting {
    /// The device path (`/dev/i2c-1`).
    public let name: String
    /// What the adapter can do, read once with `I2C_FUNCS` when the bus was opened.
    public let functions: I2CAdapterFunctions

    let descriptor: Int32
    let dev: any I2CDevInterface
    /// N in `/dev/i2c-N`, to find the device's sysfs entry.
    let busNumber: Int?
    let sysfsRoot: String
    /// The address last set with `I2C_SLAVE`; the kernel keeps it per descriptor.
    var target: UInt8?

    /// Opens the bus at `path` (`/dev/i2c-1`) and reads what the adapter can do.
    public convenience init(path: String) throws(I2COpenError) {
        try self.init(path: path, dev: KernelI2CDev())
    }

    /// Opens `/dev/i2c-<number>`.
    public convenience init(number: Int) throws(I2COpenError) {
        try self.init(path: "/dev/i2c-\(number)")
    }

    init(path: String, dev: any I2CDevInterface, sysfsRoot: String = "/sys") throws(I2COpenError) {
        self.name = path
        self.dev = dev
        self.busNumber = Self.busNumber(fromDeviceName: path)
        self.sysfsRoot = sysfsRoot
        let descriptor: Int32
        do {
            descriptor = try dev.open(path)
        } catch {
            throw .opening(path, failedWith: error)
        }
        do {
            self.functions = I2CAdapterFunctions(rawValue: try dev.functions(descriptor))
        } catch {
            dev.close(descriptor)
            throw .notAnAdapter(path: path, errno: error)
        }
        self.descriptor = descriptor
    }

    deinit {
        dev.close(descriptor)
    }

    // MARK: Transfers

    public func write(_ address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        try selectTarget(address)
        guard functions.contains(.i2c) else {
            return try smbusWrite(address, bytes)
        }
        try withMessages(count: 1) { (messages) throws(I2CError) in
            messages[0] = Self.message(address, writing: bytes)
            try transfer(address, messages)
        }
    }

    public func read(_ address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        if buffer.isEmpty { return }
        try selectTarget(address)
        guard functions.contains(.i2c) else {
            return try smbusRead(address, into: buffer)
        }
        try withMessages(count: 1) { (messages) throws(I2CError) in
            messages[0] = Self.message(address, readingInto: buffer)
            try transfer(address, messages)
        }
    }

    /// On a full I²C adapter one `I2C_RDWR` with a message per operation (the kernel puts a
    /// repeated start between them); on an SMBus-only adapter the shapes SMBus has (a write, a
    /// read, a write-then-read: see `LinuxI2CBus+SMBus.swift`).
    public func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        guard functions.contains(.i2c) else { return try transactionAsTransfers(address, operations) }
        try selectTarget(address)
        try withMessages(count: operations.count) { (messages) throws(I2CError) in
            for (i, operation) in operations.enumerated() {
                switch operation {
                case .write(let bytes): messages[i] = Self.message(address, writing: bytes)
                case .read(let buffer): messages[i] = Self.message(address, readingInto: buffer)
                }
            }
            try transfer(address, messages)
        }
    }

    /// Any length on a full I²C adapter; one I²C block read (32 bytes) on SMBus, one byte
    /// without block reads.
    public var longestRead: Int {
        if functions.contains(.i2c) { return Int.max }
        return functions.contains(.smbusReadI2CBlock) ? Self.smbusBlockMax : 1
    }

    public func writeRead(
        _ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        if buffer.isEmpty { return try write(address, bytes) }
        if bytes.isEmpty { return try read(address, into: buffer) }
        try selectTarget(address)
        guard functions.contains(.i2c) else {
            return try smbusWriteRead(address, bytes, into: buffer)
        }
        try withMessages(count: 2) { (messages) throws(I2CError) in
            messages[0] = Self.message(address, writing: bytes)
            messages[1] = Self.message(address, readingInto: buffer)
            try transfer(address, messages)
        }
    }

    // MARK: Presence, as i2cdetect checks it

    /// What `i2cdetect` would print for an address: `--`, the address, or `UU`.
    public enum AddressStatus: Sendable, Equatable {
        /// Nothing acknowledged.
        case absent
        /// A device acknowledged.
        case present
        /// A kernel driver has the address (named when sysfs says which); not probed.
        case claimed(driver: String?)
    }

    /// Probes `address` the way `i2cdetect` does by default: a one-byte read for 0x30–0x37 and
    /// 0x50–0x5F (where a quick write could corrupt an EEPROM's address pointer or write-protect
    /// it), an SMBus quick write elsewhere when the adapter can, else a one-byte read.
    public func status(of address: UInt8) throws(I2CError) -> AddressStatus {
        do throws(I2CError) {
            if Self.needsReadProbe(address) || !functions.contains(.smbusQuick) {
                var byte: UInt8 = 0
                try withUnsafeMutableBytes(of: &byte) { (buffer) throws(I2CError) in
                    try read(address, into: buffer)
                }
            } else {
                try selectTarget(address)
                try kernel(address) { () throws(LinuxErrno) in try dev.smbusQuickWrite(descriptor) }
            }
            return .present
        } catch where error.kind == .noAcknowledge {
            return .absent
        } catch where isClaimed(address) {  // the read's I2C_SLAVE said EBUSY
            return .claimed(driver: driver(of: address))
        }
    }

    /// Whether a device is at `address` (see `status(of:)`): an address a kernel driver has
    /// claimed is (i2cdetect's `UU`), though only `claim(of:)` may be asked about it.
    public func isPresent(_ address: UInt8) throws(I2CError) -> Bool {
        try status(of: address) != .absent
    }

    /// The kernel driver that owns `address` and how to free it; nil when `I2C_SLAVE` lets us
    /// have the address. Asks the kernel only (no transfer on the wire).
    public func claim(of address: UInt8) -> String? {
        guard isClaimed(address) else { return nil }
        return Self.claimWords(address, bus: busNumber, sysfsRoot: sysfsRoot)
    }

    /// `I2C_SLAVE` says EBUSY: a kernel driver is bound to the address.
    private func isClaimed(_ address: UInt8) -> Bool {
        if target == address { return false }
        do {
            try dev.setTarget(descriptor, address)
            target = address
            return false
        } catch {
            target = nil
            return error.code == EBUSY
        }
    }

    private func driver(of address: UInt8) -> String? {
        busNumber.flatMap { Self.boundDriver(bus: $0, address: address, sysfsRoot: sysfsRoot) }
    }

    /// Who has the address and the user's ways out: unbind the driver, or read the chip
    /// through the kernel's own driver (its IIO device) instead.
    static func claimWords(_ address: UInt8, bus: Int?, sysfsRoot: String) -> String {
        let iio = "or use the kernel's IIO device (/sys/bus/iio/devices) instead"
        guard let bus else { return "the address \(hex(address)) is claimed by a kernel driver: unbind it, \(iio)" }
        let device = sysfsDeviceName(bus: bus, address: address)
        if let (driver, devices) = kernelBinding(bus: bus, address: address, sysfsRoot: sysfsRoot) {
            // The IIO devices the driver made are what imu reads instead (LinuxHardware).
            let through = devices.isEmpty
                ? iio : "or read it through its IIO device\(devices.count > 1 ? "s" : "") \(devices.map(\.description).joined(separator: " + ")) (imu does, when it finds no other IMU)"
            return "the address \(hex(address)) is claimed by the kernel driver \(driver): unbind it "
                + "(echo \(device) | sudo tee /sys/bus/i2c/drivers/\(driver)/unbind), \(through)"
        }
        return "the address \(hex(address)) is claimed by a kernel driver: unbind it (see /sys/bus/i2c/devices/\(device)/driver/unbind), \(iio)"
    }

    static func needsReadProbe(_ address: UInt8) -> Bool {
        (0x30...0x37).contains(address) || (0x50...0x5F).contains(address)
    }

    // MARK: Plumbing

    /// `I2C_SLAVE`, skipped when the descriptor already points at `address`.
    func selectTarget(_ address: UInt8) throws(I2CError) {
        if target == address { return }
        do {
            try dev.setTarget(descriptor, address)
        } catch {
            target = nil
            throw failure(error, during: .selectTarget, address: address)
        }
        target = address
    }

    private func transfer(_ address: UInt8, _ messages: UnsafeMutableBufferPointer<i2c_msg>) throws(I2CError) {
        try kernel(address) { () throws(LinuxErrno) in try dev.transfer(descriptor, messages) }
    }

    /// Runs one transfer call, turning its errno into the user's error.
    func kernel<Result>(_ address: UInt8, _ call: () throws(LinuxErrno) -> Result) throws(I2CError) -> Result {
        do {
            return try call()
        } catch {
            throw failure(error, during: .transfer, address: address)
        }
    }

    /// Room for `count` messages on the stack: the sample path must not allocate.
    private func withMessages(
        count: Int, _ body: (UnsafeMutableBufferPointer<i2c_msg>) throws(I2CError) -> Void
    ) throws(I2CError) {
        let failure: I2CError? = withUnsafeTemporaryAllocation(of: i2c_msg.self, capacity: count) { messages in
            do throws(I2CError) {
                try body(messages)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    private static func message(_ address: UInt8, writing bytes: UnsafeRawBufferPointer) -> i2c_msg {
        // The kernel only reads a write message's buffer; i2c_msg has no const pointer.
        let pointer = bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt8.self) }
        return i2c_msg(addr: UInt16(address), flags: 0, len: UInt16(clamping: bytes.count), buf: pointer)
    }

    private static func message(_ address: UInt8, readingInto buffer: UnsafeMutableRawBufferPointer) -> i2c_msg {
        let pointer = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        return i2c_msg(addr: UInt16(address), flags: UInt16(I2C_M_RD), len: UInt16(clamping: buffer.count), buf: pointer)
    }

    func failure(_ errno: LinuxErrno, during step: I2CStep, address: UInt8?) -> I2CError {
        Self.error(errno, during: step, bus: name, address: address, busNumber: busNumber, sysfsRoot: sysfsRoot)
    }

    /// A transfer this adapter cannot do (`.other`), with what it can.
    func unsupported(_ address: UInt8, _ detail: String) -> I2CError {
        I2CError(.other, bus: name, address: address, detail: "the adapter cannot do this: \(detail); adapter can do: \(functions)")
    }

    /// The error a user sees: the kind from `I2CErrno`, the errno in `detail`, and for an
    /// address a kernel driver owns (EBUSY from `I2C_SLAVE`) that driver and how to unbind it.
    static func error(
        _ errno: LinuxErrno, during step: I2CStep, bus: String, address: UInt8?, busNumber: Int?, sysfsRoot: String
    ) -> I2CError {
        let kind = I2CErrno.kind(for: errno, during: step)
        var detail = errno.description
        if step == .selectTarget && errno.code == EBUSY, let address {
            detail += "; " + claimWords(address, bus: busNumber, sysfsRoot: sysfsRoot)
        } else if kind == .other && [EOPNOTSUPP, ENOTTY, EINVAL].contains(errno.code) {
            detail += "; the adapter cannot do this transfer"
        }
        return I2CError(kind, bus: bus, address: address, detail: detail)
    }
}
