import Foundation
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMUMotion

/// A chip's stored calibration (what `imu calibrate` measured, in device axes), applied to its
/// samples before fusion. The magnetometer's hard iron is tracked online from there (slowly,
/// passing magnets left out), and its accuracy follows how well the field fits: it degrades
/// and recovers honestly. Without a file samples pass through and the magnetometer is
/// `uncalibrated`.
public struct SensorCalibration: Sendable {
    /// The calibration in force; nil: none.
    public let file: CalibrationFile?
    public private(set) var tracker: HardIronTracker?
    private var lastRawField: Vector3?

    public init(file: CalibrationFile?) {
        self.file = file
        tracker = file?.magnetometer.map { HardIronTracker(calibration: $0.value) }
    }

    /// The stored calibration of `chip` along `directories` (see `CalibrationDirectory.searchPath`);
    /// none when there is no file. A damaged file or one for another chip throws: running
    /// half-calibrated would hide it.
    public static func stored(for chip: ChipIdentity, searching directories: [String]) throws(CalibrationFileError) -> SensorCalibration {
        SensorCalibration(file: try CalibrationStore.load(chip, searching: directories))
    }

    /// For a service, which must not stop over a calibration file: the stored calibration of
    /// `chip`, or, when its file is damaged or for another chip, none, after `warn` has been
    /// told (in one line) which file and why. Uncalibrated samples are worse, not wrong: a
    /// relay on a shake still works, and a restart loop under systemd would help no one.
    public static func storedOrNone(
        for chip: ChipIdentity, searching directories: [String] = standardSearchPath, warn: (String) -> Void
    ) -> SensorCalibration {
        do {
            return try stored(for: chip, searching: directories)
        } catch {
            let reason = "\(error)".split(separator: "\n").joined(separator: " ")
            warn("running uncalibrated: the calibration file is unusable: \(reason) (fix it, or remove it with: imu calibrate reset)")
            return SensorCalibration(file: nil)
        }
    }

    /// Where calibration files are looked for by default: the installed service's directory
    /// alone when there is one (`CalibrationDirectory.shared`), else the user's, then /etc/imu.
    public static var standardSearchPath: [String] {
        CalibrationDirectory.searchPath(environment: ProcessInfo.processInfo.environment)
    }

    /// How far to trust the magnetometer now: the tracked calibration's accuracy, uncalibrated
    /// without a stored one.
    public var magnetometerAccuracy: MagneticFieldCalibrationAccuracy {
        switch tracker?.accuracy {
        case .high?: .high
        case .medium?: .medium
        case .low?: .low
        case nil: .uncalibrated
        }
    }

    /// Whether a magnetometer calibration (hard and soft iron) is in force: what the fusion
    /// filter needs to know before it lets the heading teach the gyro bias.
    public var magnetometerCalibrated: Bool { file?.magnetometer != nil }

    /// The fusion this calibration feeds: the fixed-point filter (as the `imu` command runs it),
    /// with the magnetometer when `frame` needs one, told whether the compass is calibrated.
    /// A calibrated gyro's offset counts as measured (its residual is zero), so the in-motion
    /// estimate runs at its careful pace from the start and after every restart (see the
    /// reference's `FusionState.biasMeasured`).
    public func fusionPipeline(frame: FrameConversion) -> DeviceMotionPipeline<FixedFusionFilter> {
        DeviceMotionPipeline(
            filter: FixedFusionFilter(usesMagnetometer: frame.frame.needsMagnetometer, magnetometerCalibrated: magnetometerCalibrated),
            frame: frame, measuredGyroOffset: file?.gyroscope != nil ? .zero : nil)
    }

    /// In words: which parts are calibrated ("gyroscope, magnetometer"), or "none".
    public var summary: String {
        guard let file else { return "none" }
        let parts = [file.gyroscope.map { _ in "gyroscope" }, file.accelerometer.map { _ in "accelerometer" },
                     file.magnetometer.map { _ in "magnetometer" }].compactMap { $0 }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// `sample` (device axes) with the calibration applied: gyro bias, accelerometer offset and
    /// scale, magnetometer hard and soft iron.
    public mutating func apply(to sample: MotionSample) -> MotionSample {
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

extension InertialSample {
    /// The calibration fits' view of a driver sample (device axes).
    public init(_ sample: MotionSample) {
        self.init(
            timestamp: sample.timestamp, accelerationG: sample.acceleration,
            rotationRateRadiansPerSecond: sample.rotationRate, temperatureCelsius: sample.temperature)
    }
}

extension DeviceMotion {
    /// This motion with the sample's calibrated field and the accuracy of the calibration behind it.
    public func with(field: Vector3?, accuracy: MagneticFieldCalibrationAccuracy) -> DeviceMotion {
        var motion = self
        motion.magneticField = field.map { CalibratedMagneticField(field: $0, accuracy: accuracy) }
        return motion
    }
}
