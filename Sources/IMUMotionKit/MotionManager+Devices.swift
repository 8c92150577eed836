import IMUBoards
import IMUCalibration
import IMUDevices
import IMUEngine
import IMUKit
import IMUTwin

extension MotionManager {
    /// The motion manager of the IMU on this computer: through its daemon (`imu run`) when one
    /// serves it and `daemon` allows (see `DaemonChoice`; a board or bus named means the hardware,
    /// as `--board` and `--bus` do for the `imu` command), else the chip itself: on `bus` (else the
    /// computer profile's header bus, else the first bus where a supported chip answers), on the
    /// board profile named `board` (else the best match for what the bus holds).
    public convenience init(
        boardNamed board: String? = nil, bus: String? = nil, requiring required: MotionCapabilities = [],
        calibration: CalibrationChoice = .stored, daemon: DaemonChoice = .whenRunning
    ) throws(MotionManagerError) {
        let hardwareNamed = board != nil || bus != nil
        try self.init(daemon: hardwareNamed && daemon == .whenRunning ? .direct : daemon, requiring: required, calibration: calibration) {
            () throws(MotionManagerError) -> IMUDevice in
            do throws(HardwareOpenError) {
                return try LinuxHardware.open(board: board, bus: bus)
            } catch {
                throw .hardware(error)
            }
        }
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
