import IMUBoards
import IMUBus
import IMUCalibration
import IMUDrivers
import IMULinux

/// An IMU on an I²C bus, ready to read: the bus, the chip's driver and where the chip sits on
/// its board.
public struct IMUHardware {
    public let bus: any I2CBus
    public let clock: any MonotonicClock
    public let board: BoardProfile
    public let placement: IMUPlacement
    public let driver: any IMUDriver

    public init(bus: any I2CBus, clock: any MonotonicClock, board: BoardProfile, placement: IMUPlacement, driver: any IMUDriver) {
        self.bus = bus
        self.clock = clock
        self.board = board
        self.placement = placement
        self.driver = driver
    }

    /// Which chip this is, for its stored calibration: part, board, bus and address.
    public var chipIdentity: ChipIdentity {
        ChipIdentity(chip: driver.model.rawValue, board: board.name, bus: bus.name, address: Int(placement.address))
    }
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

/// Opening a real IMU on Linux (/dev/i2c-N through libi2c).
public enum LinuxHardware {
    /// The IMU on `busPath` (else the computer profile's header bus, else the first bus where a
    /// supported chip answers), on the board profile named `board` (a name from Boards/ or a
    /// file; else the best match for what the bus holds).
    public static func open(
        board: String? = nil, bus busPath: String? = nil, catalog: BoardCatalog = .standard()
    ) throws(HardwareOpenError) -> IMUHardware {
        let clock = LinuxMonotonicClock()
        let named: BoardProfile?
        do { named = try board.map(catalog.profile(named:)) } catch { throw .boardProfile("\(error)") }
        if let named, named.imus.isEmpty { throw .boardWithoutIMU(named.name) }
        let candidates: [String]
        if let busPath {
            candidates = [busPath]
        } else {
            let available = LinuxI2CBus.availableBuses().map(\.path)
            guard !available.isEmpty else { throw .noI2CBus }
            let header = (try? catalog.computerProfile())??.i2cBus.map { "/dev/i2c-\($0)" }
            candidates = header.map { h in [h] + available.filter { $0 != h } } ?? available
        }

        var lastError: String?
        for path in candidates {
            // Reopened, found by its adapter's name, if the adapter is removed and comes back.
            let bus: ReopeningI2CBus
            do { bus = try LinuxI2CBus.reopening(path: path) } catch {
                lastError = error.description
                continue
            }
            if let named {
                let placement = named.imus[0]
                return IMUHardware(
                    bus: bus, clock: clock, board: named, placement: placement, driver: placement.makeDriver(bus: bus, clock: clock))
            }
            let survey: BusSurvey
            do { survey = try BusSurvey.survey(bus) } catch {
                lastError = error.description
                continue
            }
            guard let chip = survey.chips.first else {
                lastError = "no supported IMU on \(path)"
                    + (survey.unsupported.first.map { " (found an \($0.part) at \(hex($0.address)), which imu does not drive)" } ?? "")
                continue
            }
            let (profile, placement) = catalog.bestProfile(for: survey, chip: chip)
            return IMUHardware(
                bus: bus, clock: clock, board: profile, placement: placement, driver: placement.makeDriver(bus: bus, clock: clock))
        }
        throw .notFound(lastError ?? "no supported IMU found")
    }

}
