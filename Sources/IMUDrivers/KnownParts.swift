import IMUBus

/// What an identity register says about the part behind an address.
public struct PartIdentity: Sendable, Equatable {
    public enum Role: String, Sendable, Equatable {
        case accelerometerGyroscope = "accelerometer+gyroscope"
        case magnetometer
    }

    public var address: UInt8
    /// The part's name as its maker gives it: "MPU-6050", "MPU-9250", "LSM9DS1".
    public var part: String
    /// The driver that reads it, when this project has one.
    public var model: ChipModel?
    public var role: Role
    public var whoAmIRegister: UInt8
    public var whoAmIValue: UInt8
}

/// Identity registers of the parts found at the addresses IMU hats use: the driven parts'
/// identities from `ChipParts` (the only place their values are written), and parts of other
/// families named so that a user with one is told so instead of getting misread data.
public enum KnownParts {
    struct Entry {
        let addresses: [UInt8]
        let register: UInt8
        let value: UInt8
        let part: String
        let model: ChipModel?
        let role: PartIdentity.Role
    }

    /// Parts this project does not drive, from their datasheets' WHO_AM_I.
    static let otherFamilies: [Entry] = [
        // ST, WHO_AM_I at 0x0F: the LSM6DSR and ISM330DHCX datasheets (0x6B), a map of their own.
        Entry(addresses: [0x6A, 0x6B], register: 0x0F, value: 0x6B, part: "LSM6DSR/ISM330DHCX", model: nil, role: .accelerometerGyroscope),
        // TDK, WHO_AM_I in bank 0 at 0x00 like the ICM-20948 (ICM-20648 and ICM-20649 datasheets):
        // the same banks, other ranges and no magnetometer; named, not read as an ICM-20948.
        Entry(addresses: [0x68, 0x69], register: 0x00, value: 0xE0, part: "ICM-20648", model: nil, role: .accelerometerGyroscope),
        Entry(addresses: [0x68, 0x69], register: 0x00, value: 0xE1, part: "ICM-20649", model: nil, role: .accelerometerGyroscope),
    ]

    static let entries: [Entry] = {
        var entries: [Entry] = []
        for part in ChipParts.all {
            for identity in part.identities {
                entries.append(Entry(
                    addresses: part.addresses, register: part.whoAmIRegister, value: identity.value, part: identity.part,
                    model: part.model, role: .accelerometerGyroscope))
            }
            // A die behind a bypass is not on the bus a scan sees. A die answering as another
            // part's does (an LIS3MDL, 0x3D as the LSM9DS1's magnetometer) is one entry: the
            // survey pairs it by identity with whichever accel/gyro part it sits beside.
            if let die = part.magnetometer, die.reach == .ownAddress,
               !entries.contains(where: { $0.register == die.whoAmIRegister && $0.value == die.whoAmIValue && $0.addresses == die.addresses }) {
                entries.append(Entry(
                    addresses: die.addresses, register: die.whoAmIRegister, value: die.whoAmIValue, part: die.part,
                    model: part.model, role: .magnetometer))
            }
        }
        return entries + otherFamilies
    }()

    /// Whether an IMU part we know may answer at `address`.
    public static func isIMUAddress(_ address: UInt8) -> Bool { !identityRegisters(at: address).isEmpty }

    /// The registers worth asking at `address` (empty: not an address IMUs use).
    static func identityRegisters(at address: UInt8) -> [UInt8] {
        var registers: [UInt8] = []
        for entry in entries where entry.addresses.contains(address) && !registers.contains(entry.register) {
            registers.append(entry.register)
        }
        return registers
    }

    /// The part name for an identity value, if it is one we know.
    public static func name(register: UInt8, value: UInt8, at address: UInt8) -> String? {
        entries.first { $0.register == register && $0.value == value && $0.addresses.contains(address) }?.part
    }

    /// Reads the identity register(s) at `address` and names the part; nil when the address is
    /// not one IMUs use or the value is unknown.
    public static func identify(on bus: any I2CBus, at address: UInt8) throws(I2CError) -> PartIdentity? {
        for register in identityRegisters(at: address) {
            let value = try bus.readRegister(address, register)
            if let entry = entries.first(where: { $0.register == register && $0.value == value && $0.addresses.contains(address) }) {
                return PartIdentity(
                    address: address, part: entry.part, model: entry.model, role: entry.role,
                    whoAmIRegister: register, whoAmIValue: value)
            }
        }
        return nil
    }
}
