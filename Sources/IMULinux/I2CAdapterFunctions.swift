import CI2C

/// What an I²C adapter can do, as the kernel reports it through the `I2C_FUNCS` ioctl
/// (`I2C_FUNC_*` bits in `<linux/i2c.h>`).
///
/// Full I²C controllers (the Raspberry Pi's BCM2835 family) report `i2c`: any sequence of
/// messages in one transaction. SMBus-only adapters (PC SMBus hosts, the kernel's `i2c-stub`)
/// report only the SMBus transfers they can do.
public struct I2CAdapterFunctions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt

    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    private init(_ bit: Int32) {
        self.rawValue = UInt(bit)
    }

    /// Plain I²C messages, combined through `I2C_RDWR` (`I2C_FUNC_I2C`).
    public static let i2c = Self(I2C_FUNC_I2C)
    /// SMBus quick command: just the address and the R/W bit (`I2C_FUNC_SMBUS_QUICK`).
    public static let smbusQuick = Self(I2C_FUNC_SMBUS_QUICK)
    /// SMBus receive byte (`I2C_FUNC_SMBUS_READ_BYTE`).
    public static let smbusReadByte = Self(I2C_FUNC_SMBUS_READ_BYTE)
    /// SMBus send byte (`I2C_FUNC_SMBUS_WRITE_BYTE`).
    public static let smbusWriteByte = Self(I2C_FUNC_SMBUS_WRITE_BYTE)
    /// SMBus read byte data: one register (`I2C_FUNC_SMBUS_READ_BYTE_DATA`).
    public static let smbusReadByteData = Self(I2C_FUNC_SMBUS_READ_BYTE_DATA)
    /// SMBus write byte data: one register (`I2C_FUNC_SMBUS_WRITE_BYTE_DATA`).
    public static let smbusWriteByteData = Self(I2C_FUNC_SMBUS_WRITE_BYTE_DATA)
    /// I²C block read: up to 32 consecutive registers (`I2C_FUNC_SMBUS_READ_I2C_BLOCK`).
    public static let smbusReadI2CBlock = Self(I2C_FUNC_SMBUS_READ_I2C_BLOCK)
    /// I²C block write: up to 32 consecutive registers (`I2C_FUNC_SMBUS_WRITE_I2C_BLOCK`).
    public static let smbusWriteI2CBlock = Self(I2C_FUNC_SMBUS_WRITE_I2C_BLOCK)

    /// The names `i2cdetect -F` would print for the bits this type knows.
    public var description: String {
        let names: [(Self, String)] = [
            (.i2c, "I2C"), (.smbusQuick, "SMBus quick"), (.smbusReadByte, "SMBus receive byte"),
            (.smbusWriteByte, "SMBus send byte"), (.smbusReadByteData, "SMBus read byte"),
            (.smbusWriteByteData, "SMBus write byte"), (.smbusReadI2CBlock, "I2C block read"),
            (.smbusWriteI2CBlock, "I2C block write"),
        ]
        let present = names.filter { contains($0.0) }.map(\.1)
        return present.isEmpty ? "none" : present.joined(separator: ", ")
    }
}
