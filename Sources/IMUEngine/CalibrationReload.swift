import Foundation
import IMUCalibration

extension MotionEngine {
    /// Reads the chip's calibration file again along `directories` (first match wins, as at
    /// the start) and applies it from the next sample: a calibration `imu calibrate` saved
    /// while the daemon ran. No file: the engine runs uncalibrated. A damaged file, or one for
    /// another chip, throws and the calibration in force stays (a running service must not
    /// lose a good calibration to a bad file).
    /// Returns the file read (nil: none) and the calibration now in force.
    public func reloadCalibration(searching directories: [String]) throws(CalibrationFileError) -> (path: String?, calibration: SensorCalibration) {
        let chip = device.chipIdentity
        for directory in directories {
            let path = CalibrationDirectory.path(for: chip, in: directory)
            guard FileManager.default.fileExists(atPath: path) else { continue }
            let calibration = SensorCalibration(file: try CalibrationStore.read(path, expecting: chip))
            setCalibration(calibration)
            return (path, calibration)
        }
        let none = SensorCalibration(file: nil)
        setCalibration(none)
        return (nil, none)
    }
}
