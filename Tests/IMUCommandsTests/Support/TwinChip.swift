import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The chips the twin emulates, each read through a board profile that carries it.
enum TwinChip: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The `sim` board's first IMU: an LSM9DS1 at 0x6A/0x1C, mounted turned (["-x", "-y", "+z"]).
    case lsm9ds1
    /// A GY-521: an MPU-6050 at 0x68, mounted as the device.
    case mpu6050
    /// A GY-9250: an MPU-9250 at 0x68 with its AK8963 behind the bypass at 0x0C, mounted as the device.
    case mpu9250
    /// Pimoroni's ICM-20948 breakout: the ICM at 0x68 with its AK09916 behind the bypass at 0x0C.
    case icm20948
    /// A BerryIMU v3: an LSM6DSL at 0x6A and an LIS3MDL at 0x1C, mounted as the device.
    case lsm6dsl
    /// Adafruit's LSM6DSOX + LIS3MDL at 0x6A / 0x1C, mounted as the device.
    case lsm6dsox

    var board: String {
        switch self {
        case .lsm9ds1: "sim"
        case .mpu6050: "gy-521"
        case .mpu9250: "gy-9250"
        case .icm20948: "icm20948"
        case .lsm6dsl: "berryimu-v3"
        case .lsm6dsox: "lsm6dsox-lis3mdl"
        }
    }

    /// The name `imu` prints for the chip.
    var name: String {
        switch self {
        case .lsm9ds1: "LSM9DS1"
        case .mpu6050: "MPU-6050"
        case .mpu9250: "MPU-9250"
        case .icm20948: "ICM-20948"
        case .lsm6dsl: "LSM6DSL"
        case .lsm6dsox: "LSM6DSOX"
        }
    }

    var hasMagnetometer: Bool { self != .mpu6050 }

    var testDescription: String { "\(name) (--board \(board))" }
}
