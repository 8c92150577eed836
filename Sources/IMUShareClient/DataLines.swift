import IMUDrivers
import IMUGeometry
import IMUMotion

/// The daemon's data lines read back into values: a client that computes with them (the motion
/// manager, `imu calibrate`) rather than printing them.
extension MotionSample {
    /// The sample of an `imu read --format jsonl` line (what the daemon's samples stream
    /// sends), nil when the line is not one.
    public init?(sampleLine line: String) {
        guard case .object(let members)? = try? JSONText.parse(Array(line.utf8)) else { return nil }
        let object = Dictionary(members, uniquingKeysWith: { a, _ in a })
        func value(_ key: String) -> Double? {
            if case .number(let n)? = object[key] { return n }
            return nil
        }
        guard let t = value("t"), let ax = value("acc_x"), let ay = value("acc_y"), let az = value("acc_z"),
              let gx = value("gyr_x"), let gy = value("gyr_y"), let gz = value("gyr_z")
        else { return nil }
        var field: Vector3?
        if let mx = value("mag_x"), let my = value("mag_y"), let mz = value("mag_z") { field = Vector3(mx, my, mz) }
        self.init(
            timestamp: t, acceleration: Vector3(ax, ay, az), rotationRate: Vector3(gx, gy, gz),
            magneticField: field, temperature: value("temp_c"))
    }
}

/// A line of the daemon's motion stream (`imu stream --format jsonl`) read back: the device
/// motion it prints. The line carries the compass's accuracy but not the field itself, so the
/// motion's `magneticField` is nil and the accuracy is kept beside it.
public struct MotionLine: Sendable {
    public var motion: DeviceMotion
    public var compassAccuracy: MagneticFieldCalibrationAccuracy?

    /// nil when `line` is not a motion line; `frame` is the stream's (the hello's `frame`).
    public init?(_ line: String, frame: ReferenceFrame) {
        guard case .object(let members)? = try? JSONText.parse(Array(line.utf8)) else { return nil }
        let object = Dictionary(members, uniquingKeysWith: { a, _ in a })
        func value(_ key: String) -> Double? {
            if case .number(let n)? = object[key] { return n }
            return nil
        }
        func vector(_ prefix: String) -> Vector3? {
            guard let x = value(prefix + "x"), let y = value(prefix + "y"), let z = value(prefix + "z") else { return nil }
            return Vector3(x, y, z)
        }
        guard let t = value("t"), let w = value("quat_w"), let x = value("quat_x"), let y = value("quat_y"), let z = value("quat_z"),
              let gravity = vector("gravity_"), let user = vector("user_acc_"), let rotation = vector("rot_")
        else { return nil }
        motion = DeviceMotion(
            timestamp: t, attitude: Attitude(quaternion: Quaternion(w: w, x: x, y: y, z: z), referenceFrame: frame),
            rotationRate: rotation, gravity: gravity, userAcceleration: user, heading: value("heading_deg"))
        if case .string(let accuracy)? = object["mag_accuracy"] {
            compassAccuracy = MagneticFieldCalibrationAccuracy.allCases.first { $0.description == accuracy }
        } else {
            compassAccuracy = nil
        }
    }
}
