import IMUBus
import IMUDrivers

/// An address a kernel driver owns (i2cdetect's `UU`).
public struct ClaimedAddress: Sendable, Equatable {
    public var address: UInt8
    /// The bus's words: which driver, and how to unbind it.
    public var message: String
}

/// An IMU chip found on a bus: the parts of an LSM9DS1 (accel/gyro + magnetometer) grouped.
public struct FoundChip: Sendable, Equatable {
    public var model: ChipModel
    public var address: UInt8
    public var magnetometerAddress: UInt8?
    /// The part as its identity named it ("MPU-9255", "MPU-6500 clone"); the model's name by default.
    public var part: String
    /// For a clone: its WHO_AM_I and how it is read.
    public var clone: String?

    public init(model: ChipModel, address: UInt8, magnetometerAddress: UInt8? = nil, part: String? = nil, clone: String? = nil) {
        self.model = model
        self.address = address
        self.magnetometerAddress = magnetometerAddress
        self.part = part ?? model.rawValue
        self.clone = clone
    }

    /// What it measures, in the words `imu probe` prints (no magnetometer when its separate
    /// chip, an LSM6DSx's LIS3MDL, was not found).
    public var capabilities: [String] {
        var capabilities = model.part.capabilities
        if model.part.magnetometer?.isSeparateChip == true, magnetometerAddress == nil { capabilities.magnetometer = false }
        return capabilities.words
    }

    /// The magnetometer's own part name when it is a chip of its own ("LIS3MDL"), else nil.
    public var magnetometerPart: String? {
        guard magnetometerAddress != nil, let die = model.part.magnetometer, die.isSeparateChip else { return nil }
        return die.part
    }
}

/// What one bus holds: every address that acknowledged, the parts identified among them, the
/// chips this project can read, and the parts it recognised but does not drive.
public struct BusSurvey: Sendable, Equatable {
    public var bus: String
    public var adapter: String?
    public var addresses: [UInt8]
    public var chips: [FoundChip]
    /// Recognised parts without a driver here (an MPU-9250, an LSM6DSL, …).
    public var unsupported: [PartIdentity]
    /// Addresses an IMU may use that another driver has claimed (a kernel driver, on Linux), with
    /// what the bus said about it (the driver's name and how to unbind it).
    public var claimed: [ClaimedAddress]

    /// Scans `bus` like `i2cdetect` and reads the identity register of every address an IMU
    /// may use, except those another driver owns (on a bus that can say so,
    /// `ClaimedAddressReporting`): those are listed as claimed, with the bus's words.
    public static func survey(_ bus: any I2CBus, adapter: String? = nil) throws(I2CError) -> BusSurvey {
        let addresses = try bus.scan()
        let owners = bus as? any ClaimedAddressReporting
        var parts: [PartIdentity] = []
        var claimed: [ClaimedAddress] = []
        for address in addresses where KnownParts.isIMUAddress(address) {
            if let claim = owners?.claim(of: address) {
                claimed.append(ClaimedAddress(address: address, message: claim))
            } else if let part = try KnownParts.identify(on: bus, at: address) {
                parts.append(part)
            }
        }
        return BusSurvey(
            bus: bus.name, adapter: adapter, addresses: addresses,
            chips: group(parts), unsupported: parts.filter { $0.model == nil }, claimed: claimed)
    }

    /// Gives each accel/gyro part its magnetometer die, as the part's row says: one found at
    /// its own address (LSM9DS1: 0x6A with 0x1C and 0x6B with 0x1E, the pairs the SDO pins
    /// give when tied together, else whichever is left), or the fixed one behind the bypass
    /// (MPU-9250: 0x0C, not visible to a scan).
    static func group(_ parts: [PartIdentity]) -> [FoundChip] {
        var chips: [FoundChip] = []
        var magnetometers = parts.filter { $0.model != nil && $0.role == .magnetometer }
        for found in parts where found.role == .accelerometerGyroscope {
            guard let model = found.model else { continue }
            let part = model.part
            let identity = part.identities.first { $0.value == found.whoAmIValue }
            var magnetometer: UInt8?
            if let die = part.magnetometer {
                switch die.reach {
                case .behindBypass:
                    magnetometer = die.addresses.first
                case .ownAddress:
                    // By identity, not by the model the lookup named: an LIS3MDL answers as an
                    // LSM9DS1's magnetometer does (0x3D), and only the part beside it tells.
                    let ours = magnetometers.filter {
                        $0.whoAmIRegister == die.whoAmIRegister && $0.whoAmIValue == die.whoAmIValue && die.addresses.contains($0.address)
                    }.map(\.address)
                    let preferred = die.pairs[found.address]
                    magnetometer = ours.first { $0 == preferred } ?? ours.first
                    magnetometers.removeAll { $0.address == magnetometer }
                }
            }
            chips.append(FoundChip(
                model: model, address: found.address, magnetometerAddress: magnetometer,
                part: found.part, clone: identity?.clone))
        }
        return chips
    }
}
