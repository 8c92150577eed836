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
