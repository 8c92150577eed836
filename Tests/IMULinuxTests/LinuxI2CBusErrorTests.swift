#if canImport(Glibc)
import Glibc
#endif
import IMUBus
import Testing
@testable import IMULinux

/// Every `I2CError.Kind` provoked through the fake i2c-dev, checking the sentence the user reads.
@Suite struct LinuxI2CBusErrorTests {
    /// Opens a fake bus; nil when opening itself failed (the error is returned instead).
    private func open(
        _ fake: FakeI2CDev, path: String = "/dev/i2c-1", sysfsRoot: String = "/nonexistent"
    ) -> Result<LinuxI2CBus, I2CError> {
        do throws(I2CError) {
            return .success(try LinuxI2CBus(path: path, dev: fake, sysfsRoot: sysfsRoot))
        } catch {
            return .failure(error)
        }
    }

    private func readWhoAmI(_ fake: FakeI2CDev, sysfsRoot: String = "/nonexistent") -> I2CError? {
        switch open(fake, sysfsRoot: sysfsRoot) {
        case .failure(let error):
            return error
        case .success(let bus):
            do throws(I2CError) {
                _ = try bus.readRegister(0x68, 0x75)
                return nil
            } catch {
                return error
            }
        }
    }

    /// WHO_AM_I read through a reopening bus on `root`/dev/i2c-1 after its node was removed.
    private func readWhoAmIAfterRemoval(_ fake: FakeI2CDev, root: String) -> I2CError? {
        do throws(I2CError) {
            let bus = try LinuxI2CBus.reopening(path: root + "/dev/i2c-1", dev: fake, devDirectory: root + "/dev", sysfsRoot: root + "/sys")
            unlink(root + "/dev/i2c-1")
            _ = try bus.readRegister(0x68, 0x75)
            return nil
        } catch {
            return error
        }
    }

    /// How to provoke each kind, and what its message must say.
    private func scenario(_ kind: I2CError.Kind, sysfs: TemporaryDirectory) -> (FakeI2CDev, String, [String]) {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        var root = "/nonexistent"
        var expected: [String]
        switch kind {
        case .notFound:
            fake.failures[.open] = ENOENT
            expected = ["/dev/i2c-1", "raspi-config", "--sim", "ENOENT"]
        case .permissionDenied:
            fake.failures[.open] = EACCES
            expected = ["/dev/i2c-1", "i2c group", "EACCES"]
        case .busy:
            fake.failures[.setTarget] = EBUSY
            sysfs.symlink("bus/i2c/devices/1-0068/driver", to: "../../../../bus/i2c/drivers/inv-mpu6050-i2c")
            root = sysfs.path
            expected = ["/dev/i2c-1", "0x68", "inv-mpu6050-i2c", "unbind", "echo 1-0068", "/sys/bus/i2c/drivers/inv-mpu6050-i2c/unbind"]
        case .noAcknowledge:
            fake.devices = [:]
            expected = ["/dev/i2c-1", "0x68", "no device answered", "ENXIO", "wiring"]
        case .timeout:
            fake.failures[.transfer] = ETIMEDOUT
            expected = ["/dev/i2c-1", "0x68", "timed out", "ETIMEDOUT"]
        case .io:
            fake.failures[.transfer] = EIO
            expected = ["/dev/i2c-1", "0x68", "I/O error", "EIO", "pull-ups"]
        case .unsupported:
            fake.failures[.transfer] = EOPNOTSUPP
            expected = ["/dev/i2c-1", "0x68", "cannot do", "EOPNOTSUPP"]
        case .adapterRemoved:
            // A USB adapter unplugged: its node gone, transfers on the old descriptor ENODEV.
            fake.failures[.transfer] = ENODEV
            sysfs.file("dev/i2c-1")
            sysfs.file("sys/class/i2c-adapter/i2c-1/name", "i2c-tiny-usb at bus 001 device 007\n")
            root = sysfs.path
            expected = ["i2c-1 (i2c-tiny-usb at bus 001 device 007)", "was removed", "ENODEV", "reopened when it comes back"]
        }
        return (fake, root, expected)
    }

    @Test(arguments: I2CError.Kind.allCases)
    func everyKindReachesTheUserWithWhereAndWhatToDo(kind: I2CError.Kind) throws {
        let sysfs = TemporaryDirectory()
        let (fake, root, expected) = scenario(kind, sysfs: sysfs)
        let error = try #require(kind == .adapterRemoved ? readWhoAmIAfterRemoval(fake, root: root) : readWhoAmI(fake, sysfsRoot: root))
        #expect(error.kind == kind)
        for phrase in expected {
            #expect(error.description.contains(phrase), "\(kind): missing \(phrase) in: \(error.description)")
        }
    }

    @Test func busyWithoutASysfsEntryStillSaysWhereToUnbind() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.failures[.setTarget] = EBUSY
        let error = try #require(readWhoAmI(fake))
        #expect(error.kind == .busy)
        #expect(error.detail?.contains("/sys/bus/i2c/devices/1-0068/driver/unbind") == true)
    }

    @Test(arguments: [
        (ENODEV, I2CStep.open, I2CError.Kind.notFound),
        (EPERM, .open, .permissionDenied),
        (EACCES, .transfer, .permissionDenied),
        (EREMOTEIO, .transfer, .noAcknowledge),
        (ENODEV, .transfer, .noAcknowledge),
        (EBUSY, .transfer, .timeout),
        (EAGAIN, .transfer, .io),
        (EPROTO, .transfer, .io),
        (ENOTTY, .functions, .unsupported),
        (EINVAL, .selectTarget, .unsupported),
        (EINVAL, .transfer, .unsupported),
        (ENOSPC, .transfer, .io),
    ])
    func errnoTable(code: Int32, step: I2CStep, kind: I2CError.Kind) {
        #expect(I2CErrno.kind(for: LinuxErrno(code), during: step) == kind)
    }

    @Test func i2cStubsEmptyAddressIsNoAcknowledgeNotNotFound() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.smbusOnly)
        fake.absentErrno = ENODEV
        let error = try #require(readWhoAmI(fake))
        #expect(error.kind == .noAcknowledge)
        #expect(error.detail?.contains("ENODEV") == true)
    }

    @Test func aFailedFunctionsQueryClosesTheDescriptor() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.failures[.functions] = ENOTTY
        let error = try #require(readWhoAmI(fake))
        #expect(error.kind == .unsupported)
        #expect(error.description.contains("not an I²C adapter"))
        #expect(fake.calls == [.open("/dev/i2c-1"), .functions, .close(42)])
    }

    // MARK: The real kernel, no hardware needed

    @Test func aBusThatDoesNotExistIsNotFound() throws {
        #expect(access("/dev/i2c-99", F_OK) != 0)
        do {
            _ = try LinuxI2CBus(number: 99)
            Issue.record("opened /dev/i2c-99")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.description.contains("/dev/i2c-99"))
            #expect(error.description.contains("--sim"))
        }
    }

    @Test func aRegularFileIsNotAnAdapter() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("i2c-7", "not a bus")
        do {
            _ = try LinuxI2CBus(path: path)
            Issue.record("opened a regular file as a bus")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.detail?.contains("ENOTTY") == true)
            #expect(error.description.contains(path))
        }
    }
}
