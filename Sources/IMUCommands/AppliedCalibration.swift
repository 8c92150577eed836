import Foundation
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMULog
import IMUMotion

/// A chip's stored calibration, applied to its samples before fusion (in device axes, as
/// `imu calibrate` measured it). Looked up by chip identity along the standard search path.
struct AppliedCalibration {
    let file: CalibrationFile?

    /// The stored calibration of `chip`, none when there is no file. A damaged file or one for
    /// another chip is an error: running half-calibrated would hide it.
    init(for chip: ChipIdentity?) throws {
        guard let chip else {
            file = nil
            return
        }
        do {
            file = try CalibrationStore.load(chip, searching: CalibrationDirectory.searchPath(environment: ProcessInfo.processInfo.environment))
        } catch {
            throw CommandError("\(error)\n  (fix the file, or remove it with: imu calibrate reset)")
        }
    }

    /// How far to trust the magnetometer: the stored fit's accuracy, uncalibrated without one.
    var magnetometerAccuracy: MagneticFieldCalibrationAccuracy {
        switch file?.magnetometer?.value.accuracy {
        case .high?: .high
        case .medium?: .medium
        case .low?: .low
        case nil: .uncalibrated
        }
    }

    /// In words, for a log's `# calibration:` line.
    var summary: String {
        guard let file else { return "none" }
        let parts = [file.gyroscope.map { _ in "gyroscope" }, file.accelerometer.map { _ in "accelerometer" },
                     file.magnetometer.map { _ in "magnetometer" }].compactMap { $0 }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    func apply(to sample: MotionSample) -> MotionSample {
        guard let file else { return sample }
        let inertial = file.apply(to: InertialSample(sample))
        var out = sample
        out.rotationRate = inertial.rotationRateRadiansPerSecond
        out.acceleration = inertial.accelerationG
        out.magneticField = sample.magneticField.map(file.apply(toMagneticFieldMicrotesla:))
        return out
    }
}

extension HardwareSession {
    var chipIdentity: ChipIdentity {
        ChipIdentity(chip: driver.model.rawValue, board: board.name, bus: bus.name, address: Int(placement.address))
    }
}

extension DeviceMotion {
    /// The sample's calibrated field, with the accuracy of the calibration behind it.
    func with(field: Vector3?, accuracy: MagneticFieldCalibrationAccuracy) -> DeviceMotion {
        var motion = self
        motion.magneticField = field.map { CalibratedMagneticField(field: $0, accuracy: accuracy) }
        return motion
    }
}
