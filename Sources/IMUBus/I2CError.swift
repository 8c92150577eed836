/// Why an I²C transfer failed, in embedded-hal's kinds (`embedded_hal::i2c::ErrorKind`): what
/// happened on the wire, the same words on Linux, the twin and a microcontroller. Opening a bus,
/// its permissions and a kernel driver owning an address are the platform's own errors
/// (`I2COpenError` and `LinuxI2CBus.status(of:)` in IMULinux), with the advice to the user
/// where those errors are shown.
public struct I2CError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Nothing acknowledged the address or a data byte (no chip there, or it is unplugged).
        case noAcknowledge
        /// The transfer started but the wire misbehaved: a START or STOP out of place, a
        /// garbled byte, a failed checksum (EIO, EPROTO, EBADMSG on Linux).
        case bus
        /// Another master won the bus (a multi-master bus; EAGAIN on Linux).
        case arbitrationLoss
        /// The controller's receive buffer overran before the bytes were taken (a
        /// microcontroller's peripheral; Linux does not report it).
        case overrun
        /// The controller gave up waiting: a device holding SDA or SCL low, a stuck bus.
        case timeout
        /// Anything else: the bus refused the transfer (a shape the adapter cannot do, an
        /// address another driver owns, the adapter gone); `detail` says what.
        case other
    }

    public var kind: Kind
    /// The bus, as a user would name it: `/dev/i2c-1`, or `sim` for the twin.
    public var bus: String
    /// The 7-bit address the transfer was for, when there was one.
    public var address: UInt8?
    /// Extra facts for the message: the platform's code and words (`ENXIO: No such device or
    /// address`), what the adapter cannot do, who owns the address.
    public var detail: String?

    public init(_ kind: Kind, bus: String, address: UInt8? = nil, detail: String? = nil) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.detail = detail
    }

    /// What happened on the wire, where, and what on the wire usually causes it. No platform's
    /// commands: those belong to whoever opened the bus.
    public var description: String {
        let at = address.map { " at \(hex($0))" } ?? ""
        let extra = detail.map { " (\($0))" } ?? ""
        switch kind {
        case .noAcknowledge:
            return "no device answered\(at) on \(bus)\(extra): nothing acknowledged; check the wiring, that the hat is seated, and the address (AD0/SDO pins)"
        case .bus:
            return "I/O error talking to the device\(at) on \(bus)\(extra): a bus error on the wire; check the wiring and the pull-ups"
        case .arbitrationLoss:
            return "lost arbitration\(at) on \(bus)\(extra): another master drove the bus at the same time"
        case .overrun:
            return "the controller of \(bus) overran its receive buffer\(at)\(extra): bytes arrived faster than they were taken"
        case .timeout:
            return "the bus \(bus) timed out\(at)\(extra): a device may be holding SDA or SCL low; power-cycle the board or reseat the hat"
        case .other:
            // The detail is the whole story here (what the bus refused, and why).
            return "the transfer\(at) on \(bus) failed: " + (detail ?? "no reason given")
        }
    }
}

/// `0x68`-style text for an address or register. Built from bytes: splitting a string into
/// Characters would pull Unicode's grapheme tables into the firmware (Embedded Swift).
public func hex(_ value: UInt8) -> String {
    func digit(_ d: UInt8) -> UInt8 { d < 10 ? 0x30 + d : 0x57 + d }
    return "0x" + String(decoding: [digit(value >> 4), digit(value & 0xF)], as: UTF8.self)
}
