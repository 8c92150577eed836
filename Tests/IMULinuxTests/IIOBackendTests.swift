#if canImport(Glibc)
import Glibc
#endif
import IMUBoards
import IMUBus
@testable import IMUDevices
import IMUDrivers
import IMUGeometry
import Testing
@testable import IMULinux

/// The IIO backend on directory trees laid out as the kernel lays out sysfs (the channel names,
/// the shared and per-axis scales and offsets, the mount matrix, as inv_mpu6050, st_lsm6dsx and
/// st_magn print them). The real kernel is Scripts/qemu-kernel-test.sh's; these pin the
/// arithmetic: units, signs, offsets, the matrix.
@Suite struct IIOBackendTests {
    /// An MPU-6050 bound to inv-mpu6050-i2c at 1-0068, as the 6.1 kernel shows it.
    static func mpu6050(_ root: TemporaryDirectory, accel: (String, String, String) = ("1000", "0", "16384")) -> String {
        root.symlink("sys/bus/i2c/devices/1-0068/driver", to: "../../../../bus/i2c/drivers/inv-mpu6050-i2c")
        let d = "sys/bus/i2c/devices/1-0068/iio:device0"
        root.file("\(d)/name", "mpu6050\n")
        root.file("\(d)/in_accel_x_raw", accel.0 + "\n")
        root.file("\(d)/in_accel_y_raw", accel.1 + "\n")
        root.file("\(d)/in_accel_z_raw", accel.2 + "\n")
        root.file("\(d)/in_accel_scale", "0.000598\n")
        // The chip turned 90° on the board: chip x is the board's −y.
        root.file("\(d)/in_accel_mount_matrix", "0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        root.file("\(d)/in_anglvel_x_raw", "90\n")
        root.file("\(d)/in_anglvel_y_raw", "-131\n")
        root.file("\(d)/in_anglvel_z_raw", "0\n")
        root.file("\(d)/in_anglvel_scale", "0.000133090\n")
        root.file("\(d)/in_anglvel_x_offset", "10\n")  // per-axis offset beside a shared scale
        root.file("\(d)/in_temp_raw", "-521\n")
        root.file("\(d)/in_temp_offset", "12420\n")
        root.file("\(d)/in_temp_scale", "2.941176\n")
        root.file("\(d)/sampling_frequency", "50\n")
        return "\(root.path)/\(d)"
    }

    static func device(_ path: String, _ name: String) -> IIODevice {
        IIODevice(node: String(path.split(separator: "/").last!), path: path, name: name)
    }

    @Test func theIIODevicesOfABoundChipAreFoundUnderItsI2CClient() {
        let root = TemporaryDirectory()
        root.symlink("sys/bus/i2c/devices/1-006a/driver", to: "../../../../bus/i2c/drivers/st_lsm6dsx_i2c")
        root.file("sys/bus/i2c/devices/1-006a/iio:device10/name", "lsm9ds1-imu_accel\n")
        root.file("sys/bus/i2c/devices/1-006a/iio:device2/name", "lsm9ds1-imu_gyro\n")
        root.file("sys/bus/i2c/devices/1-006a/name", "lsm9ds1-imu\n")

        let binding = LinuxI2CBus.kernelBinding(busPath: "/dev/i2c-1", address: 0x6A, sysfsRoot: root.path + "/sys")
        #expect(binding?.driver == "st_lsm6dsx_i2c")
        #expect(binding?.iio.map(\.node) == ["iio:device2", "iio:device10"])
        #expect(binding?.iio.map(\.name) == ["lsm9ds1-imu_gyro", "lsm9ds1-imu_accel"])
        #expect(LinuxI2CBus.kernelBinding(busPath: "/dev/i2c-1", address: 0x6B, sysfsRoot: root.path + "/sys") == nil)

        // What `imu probe` prints for the UU address names them.
        let words = LinuxI2CBus.claimWords(0x6A, bus: 1, sysfsRoot: root.path + "/sys")
        #expect(words.contains("st_lsm6dsx_i2c") && words.contains("iio:device2 (lsm9ds1-imu_gyro) + iio:device10 (lsm9ds1-imu_accel)"), "\(words)")
    }

    @Test func channelsComeOutInTheProjectsUnitsSignsAndFrame() throws {
        let root = TemporaryDirectory()
        let path = Self.mpu6050(root)
        let driver = try IIODriver(
            model: .mpu6050, devices: [Self.device(path, "mpu6050")], busName: "/dev/i2c-1", address: 0x68,
            clock: FixedClock(12.5))
        let sample = try driver.readSample()
        let g = 9.80665
        // Chip (1000, 0, 16384) counts × 0.000598 m/s², turned by the matrix to (0, −1000, 16384),
        // specific force → gravity down: (0, +0.598, −9.797632) / g.
        #expect(abs(sample.acceleration.x - 0) < 1e-12)
        #expect(abs(sample.acceleration.y - 0.598 / g) < 1e-12)
        #expect(abs(sample.acceleration.z - -9.797632 / g) < 1e-12)
        // (90 + 10) and −131 counts × 0.000133090 rad/s; no matrix for anglvel: identity.
        #expect(abs(sample.rotationRate.x - 0.013309) < 1e-12)
        #expect(abs(sample.rotationRate.y - -0.01743479) < 1e-12)
        #expect(sample.rotationRate.z == 0)
        // (−521 + 12420) × 2.941176 milli °C.
        #expect(abs(try #require(sample.temperature) - 34.997053224) < 1e-9)
        #expect(sample.magneticField == nil)
        #expect(sample.timestamp == 12.5)
        #expect(driver.capabilities.gyroscope && driver.capabilities.thermometer && !driver.capabilities.magnetometer)
        #expect(driver.capabilities.fifoCapacity == 0)
        #expect(driver.configuration.sampleRate.hertz == 50)
        // 0.000598 m/s² per LSB is ±2 g over a signed 16-bit count.
        #expect(abs(driver.configuration.accelerometerScale.range - 0.000598 * 32768 / g) < 1e-12)
    }

    @Test func aSeparateMagnetometerDeviceGivesTheFieldInMicrotesla() throws {
        let root = TemporaryDirectory()
        let path = Self.mpu6050(root)
        let magn = root.directory("sys/bus/i2c/devices/1-001c/iio:device3")
        root.file("sys/bus/i2c/devices/1-001c/iio:device3/in_magn_x_raw", "1000\n")
        root.file("sys/bus/i2c/devices/1-001c/iio:device3/in_magn_y_raw", "-2000\n")
        root.file("sys/bus/i2c/devices/1-001c/iio:device3/in_magn_z_raw", "0\n")
        root.file("sys/bus/i2c/devices/1-001c/iio:device3/in_magn_x_scale", "0.000146\n")
        root.file("sys/bus/i2c/devices/1-001c/iio:device3/in_magn_y_scale", "0.000146\n")
        root.file("sys/bus/i2c/devices/1-001c/iio:device3/in_magn_z_scale", "0.000146\n")
        let driver = try IIODriver(
            model: .lsm9ds1, devices: [Self.device(path, "mpu6050")], magnetometer: [Self.device(magn, "lsm9ds1_magn")],
            busName: "/dev/i2c-1", address: 0x68, clock: FixedClock(0))
        let field = try #require(try driver.readSample().magneticField)
        // 1000 × 0.000146 gauss = 0.146 gauss = 14.6 µT.
        #expect(abs(field.x - 14.6) < 1e-9 && abs(field.y - -29.2) < 1e-9 && field.z == 0)
        #expect(driver.capabilities.magnetometer)
    }

    @Test func aValueNoReadingCanBeIsNamedWithItsFile() throws {
        let root = TemporaryDirectory()
        let path = Self.mpu6050(root, accel: ("1000", "0x10", "16384"))
        let driver = try IIODriver(
            model: .mpu6050, devices: [Self.device(path, "mpu6050")], busName: "/dev/i2c-1", address: 0x68, clock: FixedClock(0))
        #expect {
            _ = try driver.readSample()
        } throws: { error in
            guard case .implausible(_, 0x68, let what)? = error as? IMUDriverError else { return false }
            return what.contains("\(path)/in_accel_y_raw") && what.contains("'0x10'") && what.contains("a decimal number")
        }
    }

    @Test func aDeviceThatGoesAwayIsAnOutageNotACrash() throws {
        let root = TemporaryDirectory()
        let path = Self.mpu6050(root)
        let driver = try IIODriver(
            model: .mpu6050, devices: [Self.device(path, "mpu6050")], busName: "/dev/i2c-1", address: 0x68, clock: FixedClock(0))
        #expect(try driver.isConfigured())
        unlink("\(path)/in_accel_x_raw")  // the driver unbound: its attributes vanish
        #expect(try !driver.isConfigured())
        #expect {
            _ = try driver.readSample()
        } throws: { error in
            guard case .bus(let bus)? = error as? IMUDriverError else { return false }
            return bus.kind == .other && (bus.detail ?? "").contains("in_accel_x_raw")
        }
    }

    @Test func mountMatricesAndNumbersAreCheckedBeforeUse() {
        #expect(IIOAttributes.parseMatrix("1, 0, 0; 0, 1, 0; 0, 0, 1") == [1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(IIOAttributes.parseMatrix("0, -1, 0; 1, 0, 0; 0, 0, 1") == [0, -1, 0, 1, 0, 0, 0, 0, 1])
        #expect(IIOAttributes.parseMatrix("1, 0, 0; 0, 1, 0") == nil)
        #expect(IIOAttributes.parseMatrix("1, 0; 0, 1, 0; 0, 0, 1") == nil)
        #expect(IIOAttributes.parseMatrix("1, 0, 0; 0, x, 0; 0, 0, 1") == nil)
        #expect(IIOAttributes.parseNumber("0.000598205") == 0.000598205)
        #expect(IIOAttributes.parseNumber("-12") == -12)
        for bad in ["", "nan", "inf", "1e999", "0x10", "12 counts"] {
            #expect(IIOAttributes.parseNumber(bad) == nil, "\(bad)")
        }
    }

    @Test func aClaimedAddressOpensAsADeviceThroughItsIIODevice() throws {
        let root = TemporaryDirectory()
        _ = Self.mpu6050(root)
        let route = LinuxHardware.openThroughIIO(
            busPath: "/dev/i2c-1", address: 0x68, board: nil, survey: nil, catalog: BoardCatalog(directories: []),
            clock: FixedClock(3), sysfsRoot: root.path + "/sys")
        guard case .device(let device)? = route else {
            Issue.record("expected a device, got \(String(describing: route))")
            return
        }
        #expect(device.driver.model == .mpu6050)
        #expect(device.bus.name == "/dev/i2c-1, kernel driver inv-mpu6050-i2c")
        #expect(device.placement.address == 0x68)
        #expect(try device.driver.readSample().timestamp == 3)
        // The bus is the kernel's: a transfer is refused with where the chip is read instead.
        #expect(throws: I2CError.self) { _ = try device.bus.readRegister(0x68, 0x75) }

        // Nobody's address: not this route.
        #expect(LinuxHardware.openThroughIIO(
            busPath: "/dev/i2c-1", address: 0x69, board: nil, survey: nil, catalog: BoardCatalog(directories: []),
            clock: FixedClock(0), sysfsRoot: root.path + "/sys") == nil)
    }

    @Test func anIIODeviceOfAnotherPartIsRefusedByName() {
        let root = TemporaryDirectory()
        root.symlink("sys/bus/i2c/devices/1-0068/driver", to: "../../../../bus/i2c/drivers/inv-mpu6050-i2c")
        root.file("sys/bus/i2c/devices/1-0068/iio:device0/name", "icm20608\n")
        let route = LinuxHardware.openThroughIIO(
            busPath: "/dev/i2c-1", address: 0x68, board: nil, survey: nil, catalog: BoardCatalog(directories: []),
            clock: FixedClock(0), sysfsRoot: root.path + "/sys")
        guard case .refused(let words)? = route else {
            Issue.record("expected a refusal, got \(String(describing: route))")
            return
        }
        #expect(words.contains("inv-mpu6050-i2c") && words.contains("iio:device0 (icm20608)") && words.contains("MPU-6050"), "\(words)")
    }

    @Test func theKernelsNamesMapToThePartsImuKnows() {
        #expect(IIODriver.model(forIIOName: "mpu6050") == .mpu6050)
        #expect(IIODriver.model(forIIOName: "mpu9255") == .mpu9250)
        #expect(IIODriver.model(forIIOName: "lsm9ds1-imu_accel") == .lsm9ds1)
        #expect(IIODriver.model(forIIOName: "lsm9ds1-imu_gyro") == .lsm9ds1)
        #expect(IIODriver.model(forIIOName: "accel_3d") == nil)
    }
}

/// A clock that says one time (the driver stamps each polled sample with it).
final class FixedClock: MonotonicClock, @unchecked Sendable {
    let time: Double
    init(_ time: Double) { self.time = time }
    var now: Double { time }
    func sleep(seconds: Double) {}
}
