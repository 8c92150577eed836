import IMUBus

/// One WHO_AM_I answer a driver accepts for a part.
public struct AcceptedIdentity: Sendable, Equatable {
    public let value: UInt8
    /// The part's name as its maker gives it ("MPU-9255"), or how a clone is called.
    public let part: String
    /// Why a value that is not the maker's own is read with this driver (clones); nil for the maker's.
    public let clone: String?

    public init(_ value: UInt8, _ part: String, clone: String? = nil) {
        self.value = value
        self.part = part
        self.clone = clone
    }
}

/// A part's magnetometer when it is a second die with its own I²C address.
public struct MagnetometerDie: Sendable, Equatable {
    /// How the host reaches it.
    public enum Reach: Sendable, Equatable {
        /// At its own address on the host bus, like any chip (LSM9DS1).
        case ownAddress
        /// Behind the accel/gyro die's I²C bypass: invisible to a bus scan until the driver
        /// opens the bypass (MPU-9250's AK8963).
        case behindBypass
    }

    public let part: String
    public let addresses: [UInt8]
    public let whoAmIRegister: UInt8
    public let whoAmIValue: UInt8
    public let reach: Reach
    /// The magnetometer address that goes with an accel/gyro address when the address pins are
    /// tied together (LSM9DS1: 0x6A with 0x1C, 0x6B with 0x1E).
    public let pairs: [UInt8: UInt8]
    /// A chip of its own beside the accel/gyro part (LIS3MDL beside an LSM6DSx), which a board
    /// may leave out: then the part reads six axes.
    public var isSeparateChip = false
}

/// What a driver is made with: the bus, the part's addresses, the clock.
public struct DriverWiring {
    public let bus: any I2CBus
    public let address: UInt8
    public let magnetometerAddress: UInt8?
    public let clock: any MonotonicClock

    public init(bus: any I2CBus, address: UInt8, magnetometerAddress: UInt8?, clock: any MonotonicClock) {
        self.bus = bus
        self.address = address
        self.magnetometerAddress = magnetometerAddress
        self.clock = clock
    }
}

/// Everything this project knows about one chip part, in one place (like the const tables of
/// Linux IIO's inv_mpu6050 and st_lsm6dsx): identity registers and values, addresses,
/// capabilities, rates; and how to make its driver (`makeDriver`, from `ChipParts.drivers`,
/// keyed by the same model). Probe, capability checks, interval clamps,
/// board files, driver creation and the twin all walk `ChipParts.all`; nothing outside the
/// drivers switches on the chip.
public struct ChipPart: Sendable {
    public let model: ChipModel
    /// Accel/gyro addresses the part can take (address pins), the usual one first.
    public let addresses: [UInt8]
    public let whoAmIRegister: UInt8
    /// The answers this driver reads, the maker's own first.
    public let identities: [AcceptedIdentity]
    public let magnetometer: MagnetometerDie?
    public let capabilities: ChipCapabilities
    /// The fastest accel/gyro output rate of the part's tables, Hz.
    public let fastestRateHz: Double

    /// The identity the accel/gyro die answers with, or the error naming what answered instead.
    public func checkIdentity(on bus: any I2CBus, at address: UInt8) throws(IMUDriverError) -> AcceptedIdentity {
        let found = try bus.read(address, whoAmIRegister)
        if let identity = identities.first(where: { $0.value == found }) { return identity }
        throw .wrongChip(
            bus: bus.name, address: address, expected: model, register: whoAmIRegister, found: found,
            expectedValue: identities[0].value, identifiedAs: Self.name(register: whoAmIRegister, value: found, at: address))
    }

    /// Checks the magnetometer die's identity (once it is reachable).
    public func checkMagnetometerIdentity(on bus: any I2CBus, at address: UInt8) throws(IMUDriverError) {
        guard let die = magnetometer else { return }
        let found = try bus.read(address, die.whoAmIRegister)
        guard found == die.whoAmIValue else {
            throw .wrongChip(
                bus: bus.name, address: address, expected: model, register: die.whoAmIRegister, found: found,
                expectedValue: die.whoAmIValue, identifiedAs: Self.name(register: die.whoAmIRegister, value: found, at: address))
        }
    }

    /// The part another identity names. The firmware (Embedded Swift) prints no error text, and
    /// looking a name up there would link the whole probe table (every part's driver): nil.
    static func name(register: UInt8, value: UInt8, at address: UInt8) -> String? {
        #if hasFeature(Embedded)
        return nil
        #else
        return KnownParts.name(register: register, value: value, at: address)
        #endif
    }
}

extension ChipModel {
    /// This chip's description.
    public var part: ChipPart { ChipParts.part(self) }
}

extension ChipCapabilities {
    /// What the chip measures and does, in the words `imu probe` prints.
    public var words: [String] {
        var words: [String] = []
        if accelerometer { words.append("accelerometer") }
        if gyroscope { words.append("gyroscope") }
        if magnetometer { words.append("magnetometer") }
        if thermometer { words.append("thermometer") }
        if fifoCapacity > 0 { words.append("fifo") }
        if motionInterrupt { words.append("motion-interrupt") }
        if dataReadyInterrupt { words.append("data-ready-interrupt") }
        return words
    }
}
