import Dispatch
import IMUDrivers
import IMUMotion
import IMUTwin
import IMUDevices
import IMUMotionKit
@testable import IMUKit

/// Device motion from a twin through a motion manager: every update over `seconds` of virtual
/// time (the clock parks there, so nothing is read beyond it), pushed to a handler.
func recordDeviceMotion(
    _ board: VirtualBoard, clock: ParkingClock, frame: ReferenceFrame, seconds: Double,
    calibration: CalibrationChoice = .none, declination: Double? = nil
) async throws -> [DeviceMotion] {
    let manager = try MotionManager(board: board, calibration: calibration)
    manager.declinationDegrees = declination
    let queue = DispatchQueue(label: "device motion")
    let received = Collected<DeviceMotion>()
    let errors = Collected<String>()
    manager.startDeviceMotionUpdates(using: frame, to: queue) { motion, error in
        if let motion { received.append(motion) }
        if let error { errors.append("\(error)") }
    }
    await clock.parkedInBackground()
    manager.stopDeviceMotionUpdates()
    clock.release(until: .infinity)
    await offPool { manager.waitUntilAcquisitionEnds() }
    await offPool { queue.sync {} }
    if let error = errors.all.first { throw MotionManagerError.acquisition(error) }
    return received.all
}
