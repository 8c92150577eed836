/// Which chip a calibration belongs to: the same part type at the same address on the same
/// bus of the same board. A calibration never follows a chip it was not made on.
public struct ChipIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The part, as the drivers name it: "LSM9DS1", "MPU-6050".
    public var chip: String
    /// The board profile's name ("sense-hat", "gy-521"), or "sim" for the twin.
    public var board: String
    /// The bus as the user knows it: "/dev/i2c-1", or "sim" for the twin's virtual bus.
    public var bus: String
    /// The 7-bit I²C address of the accelerometer/gyroscope part.
    public var address: Int

    public init(chip: String, board: String, bus: String, address: Int) {
        self.chip = chip
        self.board = board
        self.bus = bus
        self.address = address
    }

    /// "LSM9DS1 at 0x6b on /dev/i2c-1 (board sense-hat)", for messages.
    public var description: String {
        "\(chip) at \(hexAddress) on \(bus) (board \(board))"
    }

    var hexAddress: String {
        let hex = String(address, radix: 16)
        return "0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// A stable file name: chip, board, bus and address, lower case, with anything but
    /// letters and digits turned into dashes, and a component left out when it repeats the
    /// previous one: `lsm9ds1-sense-hat-i2c-1-0x6a.toml`, `lsm9ds1-sim-0x6a.toml` (board and
    /// bus both "sim"). "/dev/" is dropped from the bus, as every bus has it.
    public var fileName: String {
        var bus = self.bus
        if bus.hasPrefix("/dev/") { bus.removeFirst(5) }
        var parts: [String] = []
        for part in [Self.slug(chip), Self.slug(board), Self.slug(bus), hexAddress] where !part.isEmpty {
            if parts.last != part { parts.append(part) }
        }
        return parts.joined(separator: "-") + ".toml"
    }

    static func slug(_ text: String) -> String {
        var result = ""
        for scalar in text.lowercased().unicodeScalars {
            let keep = (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9")
            if keep { result.unicodeScalars.append(scalar) }
            else if !result.isEmpty && !result.hasSuffix("-") { result += "-" }
        }
        while result.hasSuffix("-") { result.removeLast() }
        return result
    }
}
