/// The motion chips this project drives, named as their makers name them (these names are
/// what `imu probe --json` prints).
public enum ChipModel: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case mpu6050 = "MPU-6050"
    case lsm9ds1 = "LSM9DS1"
}
