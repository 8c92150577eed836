/// The motion chips this project drives, named as their makers name them (these names are
/// what `imu probe --json` prints). Each has one description in `ChipParts` (identity,
/// addresses, capabilities, rates, driver); adding a chip is adding a case and a row there.
public enum ChipModel: String, Sendable, Equatable, Hashable, CaseIterable {
    case mpu6050 = "MPU-6050"
    /// MPU-6500 register map, accelerometer + gyroscope (also the clones listed in `ChipParts`).
    case mpu6500 = "MPU-6500"
    /// MPU-6500 map plus the AK8963 magnetometer behind the I²C bypass (also the MPU-9255).
    case mpu9250 = "MPU-9250"
    case lsm9ds1 = "LSM9DS1"
    /// ICM-20948: registers in four banks, the AK09916 magnetometer behind the I²C bypass.
    case icm20948 = "ICM-20948"
}

// Embedded Swift (the firmware build) has no Codable; the Linux build keeps it.
#if !hasFeature(Embedded)
extension ChipModel: Codable {}
#endif
