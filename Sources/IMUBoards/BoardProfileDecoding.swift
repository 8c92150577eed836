import Foundation
import IMUConfigFile
import IMUDrivers
import IMUGeometry

extension BoardProfile {
    /// Reads and validates a board file; the profile's name is the file's stem
    /// (`Boards/gy-521.toml` → `gy-521`). Throws `BoardProfileError` with the file, line and
    /// column of the first problem; a profile is never returned half-checked.
    public static func load(from path: String) throws(BoardProfileError) -> BoardProfile {
        let text = try readConfigurationText(path, what: "board file")
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try parse(text, name: stem, file: path)
    }

    /// Validates board-file text; `file` is only used in error messages.
    public static func parse(_ text: String, name: String, file: String) throws(BoardProfileError) -> BoardProfile {
        try BoardProfileDecoder(text: text, file: file).decode(name: name)
    }
}

/// The schema (Boards/README.md) and its checks, in the order a reader meets them.
struct BoardProfileDecoder: TOMLSchemaDecoder {
    let file: String
    let locator: TOMLLocator

    init(text: String, file: String) throws(BoardProfileError) {
        self.file = file
        self.locator = TOMLLocator(root: try Self.parseRoot(text, file: file))
    }

    // MARK: Keys per table

    static let computerKeys = ["title", "kind", "device-tree-models", "i2c-bus", "gpio-chip", "header-pins"]
    static let hatKeys = ["title", "kind", "imu", "other-device"]
    static let simulatedKeys = ["title", "kind", "i2c-bus", "gpio-chip", "header-pins", "imu", "other-device"]
    static let imuKeys = ["chip", "address", "magnetometer-address", "mounting", "interrupt-pin"]
    static let otherDeviceKeys = ["address", "name"]

    /// How each value should look, for "must be …" messages.
    static let expected: [String: String] = [
        "title": "a string like \"Raspberry Pi 4\"",
        "kind": "one of \"computer\", \"hat\", \"simulated\"",
        "device-tree-models": "an array of strings like [\"Raspberry Pi 4 Model B\"]",
        "i2c-bus": "an integer like 1",
        "gpio-chip": "a string like \"pinctrl-bcm2711\"",
        "header-pins": "a table of header pin = GPIO line, like [header-pins] 7 = 4",
        "imu": "an array of tables, written [[imu]]",
        "other-device": "an array of tables, written [[other-device]]",
        "chip": "a string: \"MPU-6050\" or \"LSM9DS1\"",
        "address": "an integer like 0x68",
        "magnetometer-address": "an integer like 0x1C",
        "mounting": "an array of three axis names like [\"-y\", \"+x\", \"+z\"]",
        "interrupt-pin": "a header pin number like 7",
        "name": "a string like \"LPS25H pressure sensor\"",
    ]

    // MARK: Decoding

    func decode(name: String) throws(BoardProfileError) -> BoardProfile {
        let root = locator.root

        let kindText = try string(root, "kind", required: true)!
        guard let kind = BoardProfile.Kind(rawValue: kindText) else {
            throw self.error("`kind` must be one of \"computer\", \"hat\", \"simulated\", found \"\(kindText)\"", key: "kind")
        }
        let allowed: [String]
        switch kind {
        case .computer: allowed = Self.computerKeys
        case .hat: allowed = Self.hatKeys
        case .simulated: allowed = Self.simulatedKeys
        }
        try checkKeys(root, allowed: allowed, table: nil, index: nil, what: "a \(kind.rawValue) profile")

        let title = try string(root, "title", required: true)!
        var profile = BoardProfile(name: name, title: title, kind: kind)

        if kind != .hat {
            profile.i2cBus = try integer(root, "i2c-bus", required: kind == .computer)
            if let bus = profile.i2cBus, bus < 0 {
                throw self.error("`i2c-bus` must be 0 or more (it names /dev/i2c-N), found \(bus)", key: "i2c-bus")
            }
            profile.gpioChipLabel = try string(root, "gpio-chip", required: kind == .computer)
            profile.headerPins = try headerPins(root, required: kind == .computer)
        }
        if kind == .computer {
            profile.deviceTreeModels = try stringArray(root, "device-tree-models")
        }
        if kind != .computer {
            profile.imus = try imus(root, headerPins: kind == .simulated && !profile.headerPins.isEmpty ? profile.headerPins : nil)
            profile.otherDevices = try otherDevices(root)
            if profile.imus.isEmpty {
                throw self.error("a \(kind.rawValue) profile needs at least one [[imu]] table (chip, address, mounting)")
            }
            try checkAddressesUnique(profile)
        }
        return profile
    }

    // MARK: Sections

    func headerPins(_ root: TOMLTable, required: Bool) throws(BoardProfileError) -> [Int: Int] {
        guard let v = root["header-pins"] else {
            if required { throw missing("header-pins", table: nil, index: nil) }
            return [:]
        }
        guard let table = v.table else { throw mustBe("header-pins", v, table: nil, index: nil) }
        var pins: [Int: Int] = [:]
        var pinOfLine: [Int: Int] = [:]
        for key in table.keys {
            let at = { (message: String) in self.error(message, key: key, table: "header-pins") }
            guard let pin = Int(key), (1...40).contains(pin) else {
                throw at("header pin `\(key)` in [header-pins] must be a pin number 1–40")
            }
            if let power = RaspberryPiHeader.powerPins[pin] {
                throw at("header pin \(pin) is \(power), not a GPIO pin; leave it out of [header-pins]")
            }
            guard let value = table[key], value.type == .int, let line = value.int else {
                throw at("header pin \(pin) in [header-pins] must map to a GPIO line offset like 17, found \(describe(table[key]!))")
            }
            guard (0...1023).contains(line) else {
                throw at("header pin \(pin) maps to GPIO line \(line); a line offset is 0 or more (and below 1024)")
            }
            if let other = pinOfLine[line] {
                throw at("header pins \(min(pin, other)) and \(max(pin, other)) both map to GPIO line \(line)")
            }
            pinOfLine[line] = pin
            pins[pin] = line
        }
        return pins
    }

    func imus(_ root: TOMLTable, headerPins: [Int: Int]?) throws(BoardProfileError) -> [IMUPlacement] {
        var result: [IMUPlacement] = []
        for (index, t) in try tables(root, "imu").enumerated() {
            try checkKeys(t, allowed: Self.imuKeys, table: "imu", index: index, what: "[[imu]]")
            let chipName = try string(t, "chip", required: true, table: "imu", index: index)!
            guard let chip = Self.chip(named: chipName) else {
                throw error(
                    "unknown chip \"\(chipName)\"\(context("imu", index)) (expected one of "
                        + ChipModel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + ")",
                    key: "chip", table: "imu", index: index)
            }
            let address = try i2cAddress(t, "address", required: true, index: index)!
            let magnetometer = try i2cAddress(t, "magnetometer-address", required: false, index: index)
            let die = chip.part.magnetometer
            if let die, die.reach == .ownAddress, !die.isSeparateChip, magnetometer == nil {
                throw error(
                    "an \(chip.rawValue) needs `magnetometer-address`\(context("imu", index)) ("
                        + die.addresses.map { hex(Int($0)) }.joined(separator: " or ") + "): its magnetometer answers at its own address",
                    key: "chip", table: "imu", index: index)
            }
            if die == nil, magnetometer != nil {
                throw error("an \(chip.rawValue) has no magnetometer: remove `magnetometer-address`\(context("imu", index))",
                            key: "magnetometer-address", table: "imu", index: index)
            }
            // Behind a bypass the magnetometer's address is the part's own (the AK8963's 0x0C).
            let magnetometerAddress = magnetometer ?? (die?.reach == .behindBypass ? die?.addresses.first : nil)
            let mounting = try self.mounting(t, index: index)
            let pin = try interruptPin(t, index: index, headerPins: headerPins)
            result.append(IMUPlacement(chip: chip, address: address, magnetometerAddress: magnetometerAddress,
                                       mounting: mounting, interruptPin: pin))
        }
        return result
    }

    /// Chip names as the makers write them, forgiving case and the hyphen.
    static func chip(named name: String) -> ChipModel? {
        let folded = name.lowercased().replacingOccurrences(of: "-", with: "")
        return ChipModel.allCases.first { $0.rawValue.lowercased().replacingOccurrences(of: "-", with: "") == folded }
    }

    /// A 7-bit address outside the reserved ranges (0x00–0x07 and 0x78–0x7F are I²C's own).
    func i2cAddress(_ t: TOMLTable, _ key: String, required: Bool, index: Int) throws(BoardProfileError) -> UInt8? {
        guard let a = try integer(t, key, required: required, table: "imu", index: index) else { return nil }
        guard (0x08...0x77).contains(a) else {
            throw error("`\(key)`\(context("imu", index)) must be a 7-bit I²C address 0x08–0x77, found \(hex(a))",
                        key: key, table: "imu", index: index)
        }
        return UInt8(a)
    }

    func mounting(_ t: TOMLTable, index: Int) throws(BoardProfileError) -> AxisRotation {
        guard let v = t["mounting"] else { return .identity }
        let fail = { (why: String) in
            self.error("`mounting`\(self.context("imu", index)) \(why)", key: "mounting", table: "imu", index: index)
        }
        guard let array = v.array else { throw mustBe("mounting", v, table: "imu", index: index) }
        var axes: [String] = []
        for element in array {
            guard let s = element.string else { throw mustBe("mounting", v, table: "imu", index: index) }
            axes.append(s)
        }
        guard axes.count == 3 else {
            throw fail("must say where chip x, y and z point (three entries like [\"-y\", \"+x\", \"+z\"]), found \(axes.count)")
        }
        let valid = ["+x", "-x", "+y", "-y", "+z", "-z"]
        for (i, axis) in axes.enumerated() where !valid.contains(axis.lowercased()) {
            throw fail("entry \(i + 1) \"\(axis)\" must be a signed axis: one of \(valid.joined(separator: ", "))")
        }
        let targets = axes.map { $0.lowercased().dropFirst() }
        for (i, target) in targets.enumerated() {
            if let j = targets[(i + 1)...].firstIndex(of: target) {
                let names = ["x", "y", "z"]
                throw fail("is not a rotation: axis \(target) repeated (chip \(names[i]) and chip \(names[j]) both point along \(target))")
            }
        }
        guard let rotation = AxisRotation(axes) else {
            throw fail("[\(axes.joined(separator: ", "))] is a mirror, not a rotation: no board can mount a chip that way (flip the sign of one axis)")
        }
        return rotation
    }

    /// A header pin that is a GPIO: on this profile's own header when it has one (the twin),
    /// else on the standard Raspberry Pi header.
    func interruptPin(_ t: TOMLTable, index: Int, headerPins: [Int: Int]?) throws(BoardProfileError) -> Int? {
        guard let pin = try integer(t, "interrupt-pin", required: false, table: "imu", index: index) else { return nil }
        let fail = { (why: String) in self.error(why, key: "interrupt-pin", table: "imu", index: index) }
        guard (1...40).contains(pin) else {
            throw fail("`interrupt-pin`\(context("imu", index)) must be a header pin number 1–40, found \(pin)")
        }
        if let power = RaspberryPiHeader.powerPins[pin] {
            throw fail("`interrupt-pin`\(context("imu", index)) is header pin \(pin), which is \(power), not a GPIO pin")
        }
        if let headerPins, headerPins[pin] == nil {
            throw fail("`interrupt-pin`\(context("imu", index)) is header pin \(pin), which is not a GPIO pin in this board's [header-pins]")
        }
        return pin
    }

    func otherDevices(_ root: TOMLTable) throws(BoardProfileError) -> [OtherDevice] {
        var result: [OtherDevice] = []
        for (index, t) in try tables(root, "other-device").enumerated() {
            try checkKeys(t, allowed: Self.otherDeviceKeys, table: "other-device", index: index, what: "[[other-device]]")
            let name = try string(t, "name", required: true, table: "other-device", index: index)!
            let a = try integer(t, "address", required: true, table: "other-device", index: index)!
            guard (0x08...0x77).contains(a) else {
                throw error("`address`\(context("other-device", index)) must be a 7-bit I²C address 0x08–0x77, found \(hex(a))",
                            key: "address", table: "other-device", index: index)
            }
            result.append(OtherDevice(address: UInt8(a), name: name))
        }
        return result
    }

    /// Two chips cannot answer at one address on one bus.
    func checkAddressesUnique(_ profile: BoardProfile) throws(BoardProfileError) {
        var seen: Set<UInt8> = []
        var uses: [(UInt8, String, String, Int)] = []   // address, key, table, index
        for (i, imu) in profile.imus.enumerated() {
            uses.append((imu.address, "address", "imu", i))
            if let m = imu.magnetometerAddress { uses.append((m, "magnetometer-address", "imu", i)) }
        }
        for (i, d) in profile.otherDevices.enumerated() { uses.append((d.address, "address", "other-device", i)) }
        for (address, key, table, index) in uses {
            guard seen.insert(address).inserted else {
                throw error("address \(hex(Int(address))) is used twice on this board (`\(key)`\(context(table, index)))",
                            key: key, table: table, index: index)
            }
        }
    }

    func hex(_ value: Int) -> String {
        value < 0 ? "-0x" + String(-value, radix: 16, uppercase: true) : "0x" + String(value, radix: 16, uppercase: true)
    }
}
