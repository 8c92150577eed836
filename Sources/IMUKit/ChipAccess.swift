import IMUBus
import IMUCalibration
import IMUDrivers
import IMUEngine

/// The device, owned by the manager. The driver is not thread-safe, so only the engine's thread
/// uses it, and the engines follow one another (each waits for the previous to end): that is
/// what makes the unchecked Sendable sound.
final class ChipAccess: @unchecked Sendable {
    let device: IMUDevice

    init(device: IMUDevice) {
        self.device = device
    }

    var driver: any IMUDriver { device.driver }
    /// Which chip this is (part, board, bus, address): its calibration is looked up by it.
    var identity: ChipIdentity { device.chipIdentity }
}

/// Where a manager's samples come from: the chip it owns, or the daemon that owns it.
enum MotionOrigin: Sendable {
    case chip(ChipAccess)
    case daemon(DaemonEndpoint)

    var model: ChipModel {
        switch self {
        case .chip(let access): access.driver.model
        case .daemon(let endpoint): endpoint.model
        }
    }

    var capabilities: MotionCapabilities {
        switch self {
        case .chip(let access): MotionCapabilities(access.driver.capabilities)
        case .daemon(let endpoint): endpoint.capabilities
        }
    }

    var identity: ChipIdentity {
        switch self {
        case .chip(let access): access.identity
        case .daemon(let endpoint): endpoint.identity
        }
    }

    /// The fastest rate samples can come at: the chip's fastest, or the daemon's rate.
    var fastestRateHz: Double {
        switch self {
        case .chip(let access): access.driver.model.part.fastestRateHz
        case .daemon(let endpoint): endpoint.rateHz
        }
    }
}
