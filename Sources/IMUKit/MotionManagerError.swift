import IMUDrivers
import IMUEngine
import IMUMotion

/// What a motion manager reports: to the thrower at creation, or to handlers and streams.
public enum MotionManagerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The program declared it needs sensors this chip does not have.
    case missingCapabilities(MotionCapabilities, chip: ChipModel)
    /// Updates were asked of a source this hardware does not have (the program did not declare
    /// it as required, so this is reported rather than thrown at creation).
    case unavailable(MotionSource)
    /// Device motion was asked in a frame this hardware cannot give (see `availableReferenceFrames`).
    case referenceFrameUnavailable(ReferenceFrame)
    /// A board without an IMU.
    case noIMU(board: String)
    /// No IMU could be opened on this computer (no I²C bus, no chip answering, a bad profile).
    case hardware(HardwareOpenError)
    /// The chip's calibration file is damaged, or the calibration given is another chip's, in words.
    case calibration(String)
    /// Trouble reading the chip, in words (an outage is reported once; updates resume by
    /// themselves when the chip answers again).
    case acquisition(String)
    /// The daemon that owns the chip could not be reached, or ended the connection, in words.
    case daemon(String)
    /// Samples the daemon at `socket` dropped because this program fell behind it (updates go on).
    case samplesLost(Int, socket: String)

    public var description: String {
        switch self {
        case .missingCapabilities(let missing, let chip):
            "this program needs a \(missing), which the \(chip.rawValue) does not have"
        case .unavailable(let source):
            "no \(source) on this hardware"
        case .referenceFrameUnavailable(let frame):
            "the reference frame \(frame.rawValue) is not available on this hardware"
        case .noIMU(let board):
            "the board '\(board)' carries no IMU"
        case .hardware(let error):
            error.description
        case .calibration(let message):
            message
        case .acquisition(let message), .daemon(let message):
            message
        case .samplesLost(let count, let socket):
            "\(count) samples lost: this program fell behind the imu daemon at \(socket)"
        }
    }
}
