import IMUBoards
import IMUCalibration
import IMUEngine
import IMUKit
import IMUTwin

extension MotionManager {
    /// The motion manager of the IMU on this computer: on `bus` (else the computer profile's
    /// header bus, else the first bus where a supported chip answers), on the board profile
    /// named `board` (else the best match for what the bus holds).
    public convenience init(
        boardNamed board: String? = nil, bus: String? = nil, requiring required: MotionCapabilities = [],
        calibration: CalibrationChoice = .stored
    ) throws(MotionManagerError) {
        let device: IMUDevice
        do throws(HardwareOpenError) {
            device = try LinuxHardware.open(board: board, bus: bus)
        } catch {
            throw .hardware(error)
        }
        try self.init(device: device, requiring: required, calibration: calibration)
    }

    /// A manager for the first IMU of the digital twin `board` (on the twin's own clock). Its
    /// stored calibration is the one `imu calibrate --sim` saves for the same board.
    public convenience init(
        board: VirtualBoard, requiring required: MotionCapabilities = [], calibration: CalibrationChoice = .stored
    ) throws(MotionManagerError) {
        let device: IMUDevice
        do throws(HardwareOpenError) {
            device = try SimulatedHardware.device(of: board)
        } catch {
            throw .noIMU(board: board.profile.name)
        }
        try self.init(device: device, requiring: required, calibration: calibration)
    }
}
