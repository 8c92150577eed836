import Foundation
import IMUCalibration
import IMUDrivers
import IMUEngine
import IMUFormats
import IMUFrontEnd
import IMUGeometry

/// The daemon's side of `{"command": "calibrate-gyro"}`: once asked, the next 3 s of raw
/// samples are the window (the daemon goes on reading, recognising and firing rules meanwhile);
/// a still window's bias is merged into the calibration in force, stored where
/// `imu calibrate gyro` stores it, and handed back to be applied from the next sample.
struct DaemonGyroCalibration {
    let requests: DaemonRequest<GyroCalibrationOutcome>
    let chip: ChipIdentity
    /// Where the file goes (`imu calibrate gyro`'s directory, from the environment).
    let directory: String
    private var window: GyroBiasWindow?

    init(requests: DaemonRequest<GyroCalibrationOutcome>, chip: ChipIdentity,
         directory: String = CalibrationDirectory.forWriting(environment: ProcessInfo.processInfo.environment)) {
        self.requests = requests
        self.chip = chip
        self.directory = directory
    }

    /// Called with each raw (uncalibrated) sample. Returns the calibration to apply from now
    /// on when a measurement has just succeeded (`current` with the new gyro bias), else nil.
    mutating func feed(_ sample: MotionSample, current: CalibrationFile?, log: (String) -> Void) -> CalibrationFile? {
        if window == nil {
            guard requests.take() else { return nil }
            window = GyroBiasWindow(durationSeconds: 3)
        }
        guard let outcome = window!.add(InertialSample(sample)) else { return nil }
        window = nil
        switch outcome.result {
        case .failure(let refusal):
            let reason: GyroCalibrationRefusal = refusal.kind == .moved ? .notStill : .notEnoughSamples
            log("gyro calibration asked over MQTT refused: \(reason.rawValue): \(refusal.reason)")
            requests.answer(.refused(reason, detail: refusal.reason))
            return nil
        case .success(let bias):
            var file = current ?? CalibrationFile(chip: chip)
            file.gyroscope = .init(bias, calibratedAt: Date())
            var saved: String?
            var saveError: String?
            do {
                saved = try CalibrationStore.save(file, in: directory)
            } catch {
                saveError = "\(error)"
            }
            let b = bias.biasRadiansPerSecond * (180 / .pi)
            log("gyro bias calibrated over MQTT: x \(number(b.x, 3)) y \(number(b.y, 3)) z \(number(b.z, 3)) °/s from \(outcome.sampleCount) samples; "
                + (saved.map { "saved to \($0)" } ?? "applied but not saved: \(saveError ?? "")"))
            requests.answer(.measured(GyroBiasMeasured(
                biasDegreesPerSecond: (b.x, b.y, b.z), sampleCount: outcome.sampleCount, durationSeconds: outcome.durationSeconds,
                temperatureCelsius: bias.temperatureCelsius, savedTo: saved, saveError: saveError)))
            return file
        }
    }
}
