import IMUBus
import IMUDrivers

/// An address a kernel driver owns (i2cdetect's `UU`).
public struct ClaimedAddress: Sendable, Equatable {
    public var address: UInt8
    /// The bus error's words: which driver, and how to unbind it.
    public var message: String
}

/// An IMU chip found on a bus: the parts of an LSM9DS1 (accel/gyro + magnetometer) grouped.
public struct FoundChip: Sendable, Equatable {
    public var model: ChipModel
    public var address: UInt8
    public var magnetometerAddress: UInt8?

    /// What it measures, in the words `imu probe` prints.
    public var capabilities: [String] {
        switch model {
        case .mpu6050: ["accelerometer", "gyroscope", "thermometer", "fifo", "motion-interrupt", "data-ready-interrupt"]
        case .lsm9ds1: ["accelerometer", "gyroscope", "magnetometer", "thermometer", "fifo", "motion-interrupt", "data-ready-interrupt"]
        }
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
    /// Addresses a kernel driver has claimed, with what the bus said about it (the driver's name
    /// and how to unbind it).
    public var claimed: [ClaimedAddress]

    /// Scans `bus` like `i2cdetect` and reads the identity register of every address an IMU
    /// may use.
    public static func survey(_ bus: any I2CBus, adapter: String? = nil) throws(I2CError) -> BusSurvey {
        let addresses = try bus.scan()
        var parts: [PartIdentity] = []
        var claimed: [ClaimedAddress] = []
        for address in addresses {
            do {
                if let part = try KnownParts.identify(on: bus, at: address) { parts.append(part) }
            } catch where error.kind == .busy {
                claimed.append(ClaimedAddress(address: address, message: error.description))
            }
        }
        return BusSurvey(
            bus: bus.name, adapter: adapter, addresses: addresses,
            chips: group(parts), unsupported: parts.filter { $0.model == nil }, claimed: claimed)
    }

    /// Pairs each LSM9DS1 accel/gyro part with a magnetometer part (0x6A with 0x1C and 0x6B with
    /// 0x1E, the pairs the SDO pins give when tied together, else whichever is left).
    static func group(_ parts: [PartIdentity]) -> [FoundChip] {
        var chips: [FoundChip] = []
        var magnetometers = parts.filter { $0.model == .lsm9ds1 && $0.role == .magnetometer }.map(\.address)
        for part in parts where part.model != nil && part.role == .accelerometerGyroscope {
            switch part.model! {
            case .mpu6050:
                chips.append(FoundChip(model: .mpu6050, address: part.address))
            case .lsm9ds1:
                let preferred: UInt8 = part.address == 0x6A ? 0x1C : 0x1E
                let magnetometer = magnetometers.first { $0 == preferred } ?? magnetometers.first
                magnetometers.removeAll { $0 == magnetometer }
                chips.append(FoundChip(model: .lsm9ds1, address: part.address, magnetometerAddress: magnetometer))
            }
        }
        return chips
    }
}
