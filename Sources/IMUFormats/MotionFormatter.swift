import IMUGeometry
import IMUMotion
import IMUWire

/// Text for device motion, one line per sample: what `imu replay` (and `imu stream` when piped)
/// print. The CSV columns begin exactly as the fusion issue fixes them.
public struct MotionFormatter: Sendable {
    public static let csvColumns = [
        "t", "quat_w", "quat_x", "quat_y", "quat_z", "roll_deg", "pitch_deg", "yaw_deg",
        "gravity_x", "gravity_y", "gravity_z", "user_acc_x", "user_acc_y", "user_acc_z",
        "rot_x", "rot_y", "rot_z", "heading_deg", "mag_accuracy",
    ]

    public let format: SampleFormat

    public init(_ format: SampleFormat) {
        self.format = format
    }

    public func header(frame: ReferenceFrame, source: String) -> [String] {
        switch format {
        case .csv:
            return [
                "# imu device motion: attitude in \(frame.rawValue); angles in degrees; gravity and user acceleration in g (gravity points down); rotation rate in rad/s, bias removed",
                "# source: \(source)",
                Self.csvColumns.joined(separator: ","),
            ]
        case .jsonl:
            return []
        case .table:
            return [
                "\(source), \(frame.rawValue)",
                "t s".leftPadded(10) + "roll°".leftPadded(8) + "pitch°".leftPadded(8) + "yaw°".leftPadded(8)
                    + "grav x".leftPadded(8) + "y".leftPadded(7) + "z".leftPadded(7)
                    + "user x".leftPadded(8) + "y".leftPadded(7) + "z".leftPadded(7) + "heading°".leftPadded(10),
            ]
        }
    }

    public func line(for motion: DeviceMotion) -> String {
        let q = motion.attitude.quaternion
        let euler = q.eulerAngles
        let degrees = 180 / Double.pi
        let angles = [euler.roll * degrees, euler.pitch * degrees, euler.yaw * degrees]
        let g = motion.gravity, u = motion.userAcceleration, r = motion.rotationRate
        switch format {
        case .jsonl:
            return OutputLines.motion(
                t: motion.timestamp, quaternion: (q.w, q.x, q.y, q.z), eulerDegrees: (angles[0], angles[1], angles[2]),
                gravity: (g.x, g.y, g.z), userAcceleration: (u.x, u.y, u.z), rotationRate: (r.x, r.y, r.z),
                headingDegrees: motion.heading, magneticAccuracy: motion.magneticField.map { "\($0.accuracy)" })
        case .csv:
            let values: [String] =
                [number(motion.timestamp, 6)]
                + [q.w, q.x, q.y, q.z].map { number($0, 6) }
                + angles.map { number($0, 3) }
                + [g.x, g.y, g.z, u.x, u.y, u.z].map { number($0, 5) }
                + [r.x, r.y, r.z].map { number($0, 5) }
                + [motion.heading.map { number($0, 2) } ?? "", motion.magneticField.map { "\($0.accuracy)" } ?? ""]
            return values.joined(separator: ",")
        case .table:
            return number(motion.timestamp, 3).leftPadded(10)
                + angles.map { number($0, 1).leftPadded(8) }.joined()
                + number(g.x, 2).leftPadded(8) + number(g.y, 2).leftPadded(7) + number(g.z, 2).leftPadded(7)
                + number(u.x, 2).leftPadded(8) + number(u.y, 2).leftPadded(7) + number(u.z, 2).leftPadded(7)
                + (motion.heading.map { number($0, 1) } ?? "–").leftPadded(10)
        }
    }
}

extension String {
    public func leftPadded(_ width: Int) -> String {
        count >= width ? self + " " : String(repeating: " ", count: width - count) + self
    }
}
