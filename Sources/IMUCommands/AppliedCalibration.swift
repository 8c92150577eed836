import Foundation
import IMUCalibration
import IMUDrivers
import IMUKit
import IMUMotion

/// The CLI's view of a chip's stored calibration: IMUKit's `SensorCalibration` (the same one the
/// motion manager applies), looked up by chip identity along the standard search path, with a
/// damaged file reported in the CLI's words.
struct AppliedCalibration {
    private var calibration: SensorCalibration

    /// The stored calibration of `chip`, none when there is no file. A damaged file or one for
    /// another chip is an error: running half-calibrated would hide it.
    init(for chip: ChipIdentity?) throws {
        guard let chip else {
            calibration = SensorCalibration(file: nil)
            return
        }
        do {
            calibration = try SensorCalibration.stored(for: chip, searching: SensorCalibration.standardSearchPath)
        } catch {
            throw CommandError("\(error)\n  (fix the file, or remove it with: imu calibrate reset)")
        }
    }

    /// For the daemon, which must not stop over a calibration file: the stored calibration of
    /// `chip`, or, when its file is damaged or for another chip, none, after `warn` has been
    /// told (in one line) which file and why. Uncalibrated samples are worse, not wrong: a
    /// relay on a shake still works, and a restart loop under systemd would help no one.
    init(orUncalibratedFor chip: ChipIdentity?, warn: (String) -> Void) {
        guard let chip else {
            calibration = SensorCalibration(file: nil)
            return
        }
        do {
            calibration = try SensorCalibration.stored(for: chip, searching: SensorCalibration.standardSearchPath)
        } catch {
            let reason = "\(error)".split(separator: "\n").joined(separator: " ")
            warn("running uncalibrated: the calibration file is unusable: \(reason) (fix it, or remove it with: imu calibrate reset)")
            calibration = SensorCalibration(file: nil)
        }
    }

    /// `file` in force from now on (a gyro bias measured while running).
    init(file: CalibrationFile?) {
        calibration = SensorCalibration(file: file)
    }

    var file: CalibrationFile? { calibration.file }
    var magnetometerAccuracy: MagneticFieldCalibrationAccuracy { calibration.magnetometerAccuracy }
    func fusionPipeline(frame: FrameConversion) -> DeviceMotionPipeline<FixedFusionFilter> {
        calibration.fusionPipeline(frame: frame)
    }
    /// In words, for a log's `# calibration:` line.
    var summary: String { calibration.summary }

    mutating func apply(to sample: MotionSample) -> MotionSample { calibration.apply(to: sample) }
}

extension HardwareSession {
    var chipIdentity: ChipIdentity {
        ChipIdentity(chip: driver.model.rawValue, board: board.name, bus: bus.name, address: Int(placement.address))
    }
}
