/// An error the `imu` command reports in words and ends with a non-zero status.
struct CommandError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// Runs `body`, any error it throws becoming a CommandError in the error's own words (the
    /// library's errors already name the file, line, chip or bus).
    static func wrapping<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// What to say when there is no I²C bus at all.
    static let noI2CBus = CommandError("""
        no I²C bus found (there is no /dev/i2c-*).
          On a Raspberry Pi, enable I²C: sudo raspi-config nonint do_i2c 0 (or add dtparam=i2c_arm=on
          to /boot/firmware/config.txt), then reboot. The i2c-dev module must be loaded (sudo modprobe i2c-dev).
          To try imu without hardware, use the simulated IMU: imu read --sim
        """)
}
