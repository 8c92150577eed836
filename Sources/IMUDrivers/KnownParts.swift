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

/// Identity registers of the parts found at the addresses IMU hats use. The values come from
/// each part's register map (WHO_AM_I); parts of other families are named so that a user with
/// an MPU-9250 board is told so instead of getting misread data.
public enum KnownParts {
    struct Entry {
        let addresses: [UInt8]
        let register: UInt8
        let value: UInt8
        let part: String
        let model: ChipModel?
        let role: PartIdentity.Role
    }

    static let entries: [Entry] = [
        // InvenSense, WHO_AM_I at 0x75 (RM-MPU-6000A §117; MPU-6500/9250 register maps §WHO_AM_I).
        Entry(addresses: [0x68, 0x69], register: 0x75, value: 0x68, part: "MPU-6050", model: .mpu6050, role: .accelerometerGyroscope),
        Entry(addresses: [0x68, 0x69], register: 0x75, value: 0x70, part: "MPU-6500", model: nil, role: .accelerometerGyroscope),
        Entry(addresses: [0x68, 0x69], register: 0x75, value: 0x71, part: "MPU-9250", model: nil, role: .accelerometerGyroscope),
        Entry(addresses: [0x68, 0x69], register: 0x75, value: 0x73, part: "MPU-9255", model: nil, role: .accelerometerGyroscope),
        // ST, WHO_AM_I at 0x0F (LSM9DS1 DS §7.11 and §8.1; LSM6DS3/LSM6DSL datasheets).
        Entry(addresses: [0x6A, 0x6B], register: 0x0F, value: 0x68, part: "LSM9DS1", model: .lsm9ds1, role: .accelerometerGyroscope),
        Entry(addresses: [0x6A, 0x6B], register: 0x0F, value: 0x69, part: "LSM6DS3", model: nil, role: .accelerometerGyroscope),
        Entry(addresses: [0x6A, 0x6B], register: 0x0F, value: 0x6A, part: "LSM6DSL", model: nil, role: .accelerometerGyroscope),
        Entry(addresses: [0x1C, 0x1E], register: 0x0F, value: 0x3D, part: "LSM9DS1", model: .lsm9ds1, role: .magnetometer),
    ]

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
