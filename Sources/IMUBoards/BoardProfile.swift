import IMUDrivers
import IMUGeometry

/// What a board or hat file in `Boards/` says: which computer or hat it is, where its IMU
/// chips sit on the bus, how they are turned relative to the device axes, and (for computers)
/// which I²C bus and GPIO chip the 40-pin header uses.
public struct BoardProfile: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A single-board computer (Raspberry Pi 3, 4, 5, Zero 2 W): header bus and GPIO chip.
        case computer
        /// A hat or breakout carrying IMU chips.
        case hat
        /// The digital twin.
        case simulated
    }

    /// The file's stem, which is what `--board` takes: `sense-hat`, `gy-521`, `sim`.
    public var name: String
    /// A title for people: "Raspberry Pi Sense HAT".
    public var title: String
    public var kind: Kind
    /// The IMU chips the board carries, first one first (`imu read` reads the first).
    public var imus: [IMUPlacement]
    /// The I²C bus number of the 40-pin header (computers): `1` → `/dev/i2c-1`.
    public var i2cBus: Int?
    /// The label of the GPIO chip that drives the header (computers): `pinctrl-bcm2711`.
    public var gpioChipLabel: String?
    /// Header pin number (1…40) → GPIO line offset on that chip (computers).
    public var headerPins: [Int: Int]
    /// Non-IMU chips the board is known to carry (hats): not driven, but a bus scan that finds
    /// them makes this board a likelier match than another with the same IMU addresses.
    public var otherDevices: [OtherDevice]
    /// Prefixes of `/proc/device-tree/model` that mean this computer (computers):
    /// `"Raspberry Pi 4 Model B"` matches `"Raspberry Pi 4 Model B Rev 1.4"`.
    public var deviceTreeModels: [String]

    public init(
        name: String, title: String, kind: Kind, imus: [IMUPlacement] = [],
        i2cBus: Int? = nil, gpioChipLabel: String? = nil, headerPins: [Int: Int] = [:],
        otherDevices: [OtherDevice] = [], deviceTreeModels: [String] = []
    ) {
        self.name = name
        self.title = title
        self.kind = kind
        self.imus = imus
        self.i2cBus = i2cBus
        self.gpioChipLabel = gpioChipLabel
        self.headerPins = headerPins
        self.otherDevices = otherDevices
        self.deviceTreeModels = deviceTreeModels
    }
}

/// A chip on a hat that is not an IMU (a pressure sensor, the Sense HAT's LED controller).
public struct OtherDevice: Sendable, Equatable, Hashable {
    public var address: UInt8
    /// What it is, for people: "LPS25H pressure sensor".
    public var name: String

    public init(address: UInt8, name: String) {
        self.address = address
        self.name = name
    }
}

/// One IMU chip on a board.
public struct IMUPlacement: Sendable, Equatable {
    public var chip: ChipModel
    /// The accel/gyro address (the MPU-6050's only address).
    public var address: UInt8
    /// The LSM9DS1's magnetometer address; nil for chips without one.
    public var magnetometerAddress: UInt8?
    /// How the chip's accel/gyro axes sit in the device frame (x right, y top, z out of the
    /// component side): `mounting.apply(chipVector)` is the vector in device axes.
    public var mounting: AxisRotation
    /// The header pin (1…40) the chip's INT (INT1 / INT_A/G) pin is wired to, if it is.
    public var interruptPin: Int?

    public init(
        chip: ChipModel, address: UInt8, magnetometerAddress: UInt8? = nil,
        mounting: AxisRotation = .identity, interruptPin: Int? = nil
    ) {
        self.chip = chip
        self.address = address
        self.magnetometerAddress = magnetometerAddress
        self.mounting = mounting
        self.interruptPin = interruptPin
    }
}
