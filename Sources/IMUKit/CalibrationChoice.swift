import IMUCalibration
import IMUEngine

/// Which calibration a motion manager applies to the chip's samples before fusion.
public enum CalibrationChoice: Sendable, Equatable {
    /// The chip's stored calibration (what `imu calibrate` saved), found by the chip's identity
    /// in the user's directory (`$XDG_CONFIG_HOME/imu`), then `/etc/imu`; none when there is no file.
    case stored
    /// The chip's stored calibration, looked for in these directories, first match wins.
    case searching([String])
    /// This calibration (it must be the chip's own).
    case file(CalibrationFile)
    /// None: the samples go into fusion as the chip gives them.
    case none

    /// The calibration for `chip`.
    func resolve(for chip: ChipIdentity) throws(MotionManagerError) -> SensorCalibration {
        let directories: [String]
        switch self {
        case .none:
            return SensorCalibration(file: nil)
        case .file(let file):
            guard file.chip == chip else { throw .calibration("the calibration given is for the \(file.chip), not the \(chip)") }
            return SensorCalibration(file: file)
        case .stored:
            directories = SensorCalibration.standardSearchPath
        case .searching(let given):
            directories = given
        }
        do {
            return try SensorCalibration.stored(for: chip, searching: directories)
        } catch {
            throw .calibration("\(error) (fix the file, or remove it with: imu calibrate reset)")
        }
    }
}
