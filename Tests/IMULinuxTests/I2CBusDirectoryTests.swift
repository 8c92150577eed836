import Testing
@testable import IMULinux

@Suite struct I2CBusDirectoryTests {
    @Test func busesAreListedByNumberWithTheirAdapterNames() {
        let root = TemporaryDirectory()
        for name in ["i2c-10", "i2c-2", "i2c-1", "gpiochip0", "i2c-x", "tty0"] {
            root.file("dev/\(name)")
        }
        root.file("sys/class/i2c-dev/i2c-1/name", "bcm2835 (i2c@7e804000)\n")
        root.file("sys/bus/i2c/devices/i2c-2/name", "SMBus stub driver\n")

        let buses = LinuxI2CBus.availableBuses(devDirectory: "\(root.path)/dev", sysfsRoot: "\(root.path)/sys")

        #expect(buses.map(\.number) == [1, 2, 10])
        #expect(buses.map(\.adapterName) == ["bcm2835 (i2c@7e804000)", "SMBus stub driver", nil])
        #expect(buses[0].path == "\(root.path)/dev/i2c-1")
        #expect(buses[1].description.hasSuffix("\tSMBus stub driver"))
    }

    @Test func noDevDirectoryMeansNoBuses() {
        #expect(LinuxI2CBus.availableBuses(devDirectory: "/nonexistent", sysfsRoot: "/nonexistent").isEmpty)
    }

    @Test func busNumbersComeOnlyFromI2CDevNames() {
        #expect(LinuxI2CBus.busNumber(fromDeviceName: "/dev/i2c-1") == 1)
        #expect(LinuxI2CBus.busNumber(fromDeviceName: "i2c-22") == 22)
        #expect(LinuxI2CBus.busNumber(fromDeviceName: "i2c-") == nil)
        #expect(LinuxI2CBus.busNumber(fromDeviceName: "/tmp/x/i2c-7x") == nil)
        #expect(LinuxI2CBus.busNumber(fromDeviceName: "spidev0.0") == nil)
    }

    @Test func sysfsNamesAClientByBusAndFourHexDigits() {
        #expect(LinuxI2CBus.sysfsDeviceName(bus: 1, address: 0x68) == "1-0068")
        #expect(LinuxI2CBus.sysfsDeviceName(bus: 12, address: 0x1C) == "12-001c")
    }

    @Test func theBoundDriverIsTheDriverLinksLastComponent() {
        let sysfs = TemporaryDirectory()
        sysfs.symlink("bus/i2c/devices/1-006a/driver", to: "../../../../bus/i2c/drivers/st_lsm9ds1_i2c")
        #expect(LinuxI2CBus.boundDriver(bus: 1, address: 0x6A, sysfsRoot: sysfs.path) == "st_lsm9ds1_i2c")
        #expect(LinuxI2CBus.boundDriver(bus: 1, address: 0x6B, sysfsRoot: sysfs.path) == nil)
    }
}
