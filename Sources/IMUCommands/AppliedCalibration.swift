import Foundation
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMULog
import IMUMotion

/// A chip's stored calibration, applied to its samples before fusion (in device axes, as
/// `imu calibrate` measured it). Looked up by chip identity along the standard search path.
/// The magnetometer's hard iron is tracked online from there (slowly, passing magnets left
/// out), and its accuracy follows how well the field fits: it degrades and recovers honestly.
struct AppliedCalibration {
    let file: CalibrationFile?
    private(set) var tracker: HardIronTracker?
    private var lastRawField: Vector3?

    /// The stored calibration of `chip`, none when there is no file. A damaged file or one for
    /// another chip is an error: running half-calibrated would hide it.
    init(for chip: ChipIdentity?) throws {
        guard let chip else {
            file = nil
            return
        }
        do {
            file = try CalibrationStore.load(chip, searching: CalibrationDirectory.searchPath(environment: ProcessInfo.processInfo.environment))
            tracker = file?.magnetometer.map { HardIronTracker(calibration: $0.value) }
        } catch {
            throw CommandError("\(error)\n  (fix the file, or remove it with: imu calibrate reset)")
        }
    }

    /// How far to trust the magnetometer now: the tracked calibration's accuracy, uncalibrated
    /// without a stored one.
    var magnetometerAccuracy: MagneticFieldCalibrationAccuracy {
        switch tracker?.accuracy {
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

    mutating func apply(to sample: MotionSample) -> MotionSample {
        guard let file else { return sample }
        let inertial = file.apply(to: InertialSample(sample))
        var out = sample
        out.rotationRate = inertial.rotationRateRadiansPerSecond
        out.acceleration = inertial.accelerationG
        if let raw = sample.magneticField, tracker != nil {
            // The magnetometer runs slower than the samples: track each new reading once.
            if raw != lastRawField {
                lastRawField = raw
                // Only while turning (above ~10 °/s) does the field show the hard iron from new sides.
                let turning = out.rotationRate.length > 0.17
                out.magneticField = tracker!.update(rawMicrotesla: raw, timestamp: sample.timestamp, track: turning).calibratedMicrotesla
            } else {
                out.magneticField = tracker!.calibration.apply(to: raw)
            }
        }
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
