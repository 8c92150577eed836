import IMUBoards
import IMUBus
import IMUCalibration
import IMUDrivers

/// An IMU ready to read: the bus, the chip's driver and where the chip sits on its board. The
/// engine takes one; the platforms (`IMUDevices`: Linux I²C, the digital twin) open them.
public struct IMUDevice {
    public let bus: any I2CBus
    public let clock: any MonotonicClock
    public let board: BoardProfile
    public let placement: IMUPlacement
    public let driver: any IMUDriver
    /// Whatever must live as long as the device (the twin behind a virtual bus).
    public let keepAlive: AnyObject?

    public init(
        bus: any I2CBus, clock: any MonotonicClock, board: BoardProfile, placement: IMUPlacement, driver: any IMUDriver,
        keepAlive: AnyObject? = nil
    ) {
        self.bus = bus
        self.clock = clock
        self.board = board
        self.placement = placement
        self.driver = driver
        self.keepAlive = keepAlive
    }

    /// Which chip this is, for its stored calibration: part, board, bus and address.
    public var chipIdentity: ChipIdentity {
        ChipIdentity(chip: driver.model.rawValue, board: board.name, bus: bus.name, address: Int(placement.address))
    }

    /// "MPU-6050 on gy-521": what a log, a hello or a Home Assistant device calls it.
    public var summary: String { "\(driver.model.rawValue) on \(board.name)" }
}

/// Why no IMU could be opened.
public enum HardwareOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no /dev/i2c-* at all (I²C not enabled, or i2c-dev not loaded).
    case noI2CBus
    /// The named profile is a computer, not a hat or breakout with an IMU.
    case boardWithoutIMU(String)
    /// The named profile could not be loaded (unknown name, bad file), in words.
    case boardProfile(String)
    /// No supported IMU answered; the last problem met, in words.
    case notFound(String)

    public var description: String {
        switch self {
        case .noI2CBus:
            "no I²C bus found (there is no /dev/i2c-*); on a Raspberry Pi enable I²C (sudo raspi-config nonint do_i2c 0, then reboot) and load i2c-dev (sudo modprobe i2c-dev)"
        case .boardWithoutIMU(let name):
            "the board '\(name)' carries no IMU (it is a computer profile); name a hat, e.g. sense-hat"
        case .boardProfile(let message), .notFound(let message):
            message
        }
    }
}
