import Foundation
import IMUCalibration

extension SensorCalibration {
    /// What runs uncalibrated, what that does, and the commands that fix it, in one line; nil
    /// when the gyroscope (and the compass, on a chip that has one) are calibrated. The commands
    /// carry the source's options (--sim, --board) and `sudo` when the calibration is the
    /// installed service's (root's to write). `commandOptions`: the options that name this IMU
    /// (" --sim --board gy-521"), appended to each command.
    public func uncalibratedNotice(hasMagnetometer: Bool, commandOptions options: String = "") -> String? {
        var parts: [(what: String, effect: String, command: String)] = []
        if file?.gyroscope == nil { parts.append(("gyroscope", "yaw drifts", "gyro")) }
        if hasMagnetometer && file?.magnetometer == nil { parts.append(("compass", "heading wanders", "mag")) }
        guard !parts.isEmpty else { return nil }
        let sudo = Self.needsRoot ? "sudo " : ""
        let commands = parts.map { "\(sudo)imu calibrate \($0.command)\(options)" }.joined(separator: " && ")
        return "uncalibrated " + parts.map { "\($0.what) (\($0.effect))" }.joined(separator: " and ") + "; fix: " + commands
    }

    /// Whether calibrating needs root here: the installed service's directory, and we are not root.
    public static var needsRoot: Bool {
        guard let shared = CalibrationDirectory.shared(environment: ProcessInfo.processInfo.environment) else { return false }
        return access(shared, W_OK) != 0
    }
}
