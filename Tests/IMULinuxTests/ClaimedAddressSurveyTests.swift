import IMUBoards
import IMUBus
import IMUDrivers
import Testing
@testable import IMULinux

/// A kernel driver bound to one IMU on the bus (i2cdetect's `UU`): the survey lists the address,
/// names the driver and how to unbind it, never talks to it, and reads the other chips. On the
/// plain bus and through the reopening wrapper `LinuxHardware.open` uses.
@Suite struct ClaimedAddressSurveyTests {
    @Test(arguments: [false, true])
    func aClaimedIMUIsListedWithItsDriverAndNotRead(reopening: Bool) throws {
        let root = TemporaryDirectory()
        root.file("dev/i2c-1")
        root.symlink("sys/bus/i2c/devices/1-006a/driver", to: "../../../../bus/i2c/drivers/st_lsm6dsx_i2c")
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        var mpu6050 = [UInt8](repeating: 0, count: 256)
        mpu6050[0x75] = 0x68  // WHO_AM_I
        fake.devices[0x68] = mpu6050
        var lsm9ds1 = [UInt8](repeating: 0, count: 256)
        lsm9ds1[0x0F] = 0x68  // WHO_AM_I of the accel/gyro die
        fake.devices[0x6A] = lsm9ds1
        fake.claimed = [0x6A]
        let path = root.path + "/dev/i2c-1"
        let bus: any I2CBus = reopening
            ? try LinuxI2CBus.reopening(path: path, dev: fake, devDirectory: root.path + "/dev", sysfsRoot: root.path + "/sys")
            : try LinuxI2CBus(path: path, dev: fake, sysfsRoot: root.path + "/sys")

        let survey = try BusSurvey.survey(bus)
        #expect(survey.addresses == [0x68, 0x6A])
        #expect(survey.chips.map(\.model) == [.mpu6050] && survey.chips.first?.address == 0x68)
        #expect(survey.claimed.map(\.address) == [0x6A])
        let message = try #require(survey.claimed.first?.message)
        for phrase in ["0x6a", "st_lsm6dsx_i2c", "echo 1-006a | sudo tee /sys/bus/i2c/drivers/st_lsm6dsx_i2c/unbind", "IIO"] {
            #expect(message.contains(phrase), "missing \(phrase) in: \(message)")
        }
        let talkedTo = fake.calls.flatMap { call -> [UInt16] in
            if case .transfer(let messages) = call { return messages.map(\.address) }
            return []
        }
        #expect(!talkedTo.contains(0x6A), "a transfer went to the claimed address")
    }
}
