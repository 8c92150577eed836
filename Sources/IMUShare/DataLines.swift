import IMUDrivers
import IMUGeometry

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
