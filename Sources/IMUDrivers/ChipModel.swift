/// The motion chips this project drives, named as their makers name them (these names are
/// what `imu probe --json` prints).
public enum ChipModel: String, Sendable, Equatable, Hashable, CaseIterable {
    case mpu6050 = "MPU-6050"
    case lsm9ds1 = "LSM9DS1"
}

// Embedded Swift (the firmware build) has no Codable; the Linux build keeps it.
#if !hasFeature(Embedded)
extension ChipModel: Codable {}
#endif
