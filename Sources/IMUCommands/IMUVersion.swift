import IMUDevices
import IMUEngine
import IMUFormats
/// The version `imu --version` prints and the daemon reports (Home Assistant's sw_version).
enum IMUVersion {
    static let current = "0.3.0"
}
