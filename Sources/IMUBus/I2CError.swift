/// Why an I²C transfer failed, in the short list embedded-hal uses, plus the situations a
/// Linux user meets before the first transfer (no bus, no permission, a kernel driver owns
/// the address).
public struct I2CError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Nothing acknowledged the address (no chip there, or it is unplugged).
        case noAcknowledge
        /// The transfer started but failed on the wire (EIO, EREMOTEIO after the address, …).
        case io
        /// The adapter gave up waiting (a device holding SDA or SCL low, a stuck bus).
        case timeout
        /// A kernel driver has claimed the address (`EBUSY` from `I2C_SLAVE`).
        case busy
        /// The bus device exists but this user may not open it.
        case permissionDenied
        /// There is no such bus.
        case notFound
        /// The adapter cannot do what was asked (missing `I2C_FUNCS` capability).
        case unsupported
        /// The adapter itself went away (a USB adapter unplugged, its driver unloaded); the bus
        /// is reopened when it comes back (`ReopeningI2CBus`).
        case adapterRemoved
    }

    public var kind: Kind
    /// The bus, as a user would name it: `/dev/i2c-1`, or `sim` for the twin.
    public var bus: String
    /// The 7-bit address the transfer was for, when there was one.
    public var address: UInt8?
    /// Extra facts for the message: the errno text, the driver that owns an address, the
    /// capability that is missing.
    public var detail: String?

    public init(_ kind: Kind, bus: String, address: UInt8? = nil, detail: String? = nil) {
        self.kind = kind
        self.bus = bus
        self.address = address
        self.detail = detail
    }

    /// A sentence a user can act on: what happened, where, and what to do about it.
    public var description: String {
        let at = address.map { " at \(hex($0))" } ?? ""
        let extra = detail.map { " (\($0))" } ?? ""
        switch kind {
        case .noAcknowledge:
            return "no device answered\(at) on \(bus)\(extra): check the wiring, that the hat is seated, and the address (AD0/SDO pins)"
        case .io:
            return "I/O error talking to the device\(at) on \(bus)\(extra): check the wiring and the pull-ups"
        case .timeout:
            return "the bus \(bus) timed out\(at)\(extra): a device may be holding the bus low; power-cycle the board or reseat the hat"
        case .busy:
            // The Linux bus names the driver and the unbind command in `detail` when it can.
            let unbind = detail == nil ? ": unbind it (/sys/bus/i2c/devices/<bus>-00<addr>/driver/unbind)" : ""
            return "the address\(at) on \(bus) is claimed by a kernel driver\(extra)\(unbind); or use the kernel's IIO device (/sys/bus/iio/devices) instead"
        case .permissionDenied:
            return "permission denied opening \(bus)\(extra): add yourself to the i2c group (sudo usermod -aG i2c $USER), then log out and in again"
        case .notFound:
            return "there is no I²C bus \(bus)\(extra): enable I²C (sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot; or try --sim to use the simulated IMU"
        case .unsupported:
            return "the adapter \(bus) cannot do this transfer\(at)\(extra)"
        case .adapterRemoved:
            return "the I²C adapter \(bus) was removed\(extra): plug it back in; it is reopened when it comes back, found by its name"
        }
    }
}

/// `0x68`-style text for an address or register. Built from bytes: splitting a string into
/// Characters would pull Unicode's grapheme tables into the firmware (Embedded Swift).
public func hex(_ value: UInt8) -> String {
    func digit(_ d: UInt8) -> UInt8 { d < 10 ? 0x30 + d : 0x57 + d }
    return "0x" + String(decoding: [digit(value >> 4), digit(value & 0xF)], as: UTF8.self)
}
