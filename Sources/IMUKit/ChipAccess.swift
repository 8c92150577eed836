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
