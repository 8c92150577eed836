import IMULinux

extension LinuxHardware {
    /// What the user can do about a bus that would not open: the shell commands live here, at
    /// the edge where the error reaches a person, not in the bus layer. nil when there is
    /// nothing general to advise.
    public static func advice(for error: I2COpenError) -> String? {
        switch error {
        case .notFound:
            "enable I²C (sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in /boot/firmware/config.txt) and reboot; or try --sim to use the simulated IMU"
        case .permissionDenied:
            "add yourself to the i2c group (sudo usermod -aG i2c $USER), then log out and in again"
        case .notAnAdapter:
            "name a /dev/i2c-N bus (imu probe lists them)"
        case .cannotOpen:
            nil
        }
    }

    /// The error and the advice, as one sentence for the user.
    public static func message(for error: I2COpenError) -> String {
        error.description + (advice(for: error).map { ": " + $0 } ?? "")
    }
}
