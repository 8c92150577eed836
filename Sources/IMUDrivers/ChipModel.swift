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
    case lsm6ds3 = "LSM6DS3"
    /// The LSM6DSL's map; the LSM6DS3TR-C answers the same WHO_AM_I and is read the same way.
    case lsm6dsl = "LSM6DSL"
    /// Also the LSM6DSO (the same map and WHO_AM_I, without the machine-learning core).
    case lsm6dsox = "LSM6DSOX"
}

// Embedded Swift (the firmware build) has no Codable; the Linux build keeps it.
#if !hasFeature(Embedded)
extension ChipModel: Codable {}
#endif
