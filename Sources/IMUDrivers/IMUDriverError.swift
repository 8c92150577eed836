import IMUBus

/// Why a chip driver could not do what was asked.
public enum IMUDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bus failed (no acknowledge, I/O error, …); the bus error says what and where.
    case bus(I2CError)
    /// The chip at `address` is not the one expected: its identity register read `found`.
    /// `identifiedAs` names the part when the value is one we know (an MPU-9250 answering
    /// where an MPU-6050 was expected, say).
    case wrongChip(
        bus: String, address: UInt8, expected: ChipModel, register: UInt8, found: UInt8,
        expectedValue: UInt8, identifiedAs: String?)
    /// The request cannot be met by this chip (a rate or range outside its tables, …).
    case unsupported(String)
    /// The chip answers but its output registers hold no measurement (it is asleep or powered
    /// down, typically back at its defaults after a reset): a reading would be stale.
    case notMeasuring(bus: String, address: UInt8)
    /// The chip acknowledged but what it returned cannot be a reading (`what`: every byte
    /// 0xFF, a FIFO count beyond the FIFO's size): a floating data line, a chip browned out
    /// into a bad state. The loops treat it as an outage, like a bus error.
    case implausible(bus: String, address: UInt8, what: String)

    public var description: String {
        switch self {
        case .bus(let error):
            return error.description
        case let .wrongChip(bus, address, expected, register, found, expectedValue, identifiedAs):
            let what = identifiedAs.map { ": that is an \($0), which this driver does not read as an \(expected.rawValue)" } ?? ""
            return "no \(expected.rawValue) at \(hex(address)) on \(bus): WHO_AM_I (register \(hex(register))) read \(hex(found)), expected \(hex(expectedValue))\(what)"
        case .unsupported(let what):
            return what
        case let .notMeasuring(bus, address):
            return "the chip at \(hex(address)) on \(bus) is not measuring (reset or powered down?)"
        case let .implausible(bus, address, what):
            return "the chip at \(hex(address)) on \(bus) returned \(what), which no reading can be, without a bus error (a floating data line, or a chip in a bad state?)"
        }
    }
}
