#if canImport(Glibc)
import Glibc
#endif
import IMUBus
import IMUDevices
import Testing
@testable import IMULinux

/// Every `I2CError.Kind` Linux can report, every `I2COpenError`, a claimed address and a
/// removed adapter, provoked through the fake i2c-dev, checking the sentence the user reads.
@Suite struct LinuxI2CBusErrorTests {
    private func open(
        _ fake: FakeI2CDev, path: String = "/dev/i2c-1", sysfsRoot: String = "/nonexistent"
    ) -> Result<LinuxI2CBus, I2COpenError> {
        do throws(I2COpenError) {
            return .success(try LinuxI2CBus(path: path, dev: fake, sysfsRoot: sysfsRoot))
        } catch {
            return .failure(error)
        }
    }

    /// WHO_AM_I read on a bus that opened; the transfer's error, nil when it succeeded.
    private func readWhoAmI(_ fake: FakeI2CDev, sysfsRoot: String = "/nonexistent") throws -> I2CError? {
        let bus = try open(fake, sysfsRoot: sysfsRoot).get()
        do throws(I2CError) {
            _ = try bus.readRegister(0x68, 0x75)
            return nil
        } catch {
            return error
        }
    }

    /// How to provoke each kind of transfer error, and what its message must say. (`.overrun`
    /// is a microcontroller peripheral's: Linux has no errno for it.)
    private func scenario(_ kind: I2CError.Kind) -> (FakeI2CDev, [String]) {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        var expected: [String]
        switch kind {
        case .noAcknowledge:
            fake.devices = [:]
            expected = ["/dev/i2c-1", "0x68", "no device answered", "ENXIO", "wiring"]
        case .timeout:
            fake.failures[.transfer] = ETIMEDOUT
            expected = ["/dev/i2c-1", "0x68", "timed out", "ETIMEDOUT"]
        case .bus:
            fake.failures[.transfer] = EIO
            expected = ["/dev/i2c-1", "0x68", "I/O error", "EIO", "pull-ups"]
        case .arbitrationLoss:
            fake.failures[.transfer] = EAGAIN
            expected = ["/dev/i2c-1", "0x68", "arbitration", "another master", "EAGAIN"]
        case .other:
            fake.failures[.transfer] = EOPNOTSUPP
            expected = ["/dev/i2c-1", "0x68", "cannot do", "EOPNOTSUPP"]
        case .overrun:
            expected = []
        }
        return (fake, expected)
    }

    @Test(arguments: I2CError.Kind.allCases.filter { $0 != .overrun })
    func everyTransferKindReachesTheUserWithWhereAndWhat(kind: I2CError.Kind) throws {
        let (fake, expected) = scenario(kind)
        let error = try #require(try readWhoAmI(fake))
        #expect(error.kind == kind)
        for phrase in expected {
            #expect(error.description.contains(phrase), "\(kind): missing \(phrase) in: \(error.description)")
        }
        // The bus layer's words carry no shell commands: those are said where the bus was opened.
        #expect(!error.description.contains("sudo"), "\(error.description)")
    }

    /// A bus that will not open: the error says which and why, and the message the user reads
    /// (`LinuxHardware`'s, which `imu probe` and `imu read` print) what to do.
    @Test(arguments: [
        (ENOENT, ["/dev/i2c-1", "raspi-config", "--sim", "ENOENT"]),
        (EACCES, ["/dev/i2c-1", "i2c group", "usermod", "EACCES"]),
    ])
    func aBusThatWillNotOpenTellsTheUserWhatToDo(code: Int32, expected: [String]) throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.failures[.open] = code
        guard case .failure(let error) = open(fake) else { Issue.record("opened"); return }
        #expect(error == (code == ENOENT
            ? .notFound(path: "/dev/i2c-1", errno: LinuxErrno(code)) : .permissionDenied(path: "/dev/i2c-1", errno: LinuxErrno(code))))
        let message = LinuxHardware.message(for: error)
        for phrase in expected {
            #expect(message.contains(phrase), "missing \(phrase) in: \(message)")
        }
    }

    @Test(arguments: [
        (ENOENT, "notFound"), (ENODEV, "notFound"), (ENXIO, "notFound"),
        (EACCES, "permissionDenied"), (EPERM, "permissionDenied"), (EBUSY, "cannotOpen"), (EIO, "cannotOpen"),
    ])
    func openErrnoTable(code: Int32, kind: String) {
        let error = I2COpenError.opening("/dev/i2c-1", failedWith: LinuxErrno(code))
        #expect("\(error)".isEmpty == false)
        switch error {
        case .notFound: #expect(kind == "notFound")
        case .permissionDenied: #expect(kind == "permissionDenied")
        case .notAnAdapter: Issue.record("open() never says notAnAdapter")
        case .cannotOpen: #expect(kind == "cannotOpen")
        }
        #expect(error.errno == LinuxErrno(code) && error.path == "/dev/i2c-1")
    }

    /// A kernel driver bound to the chip (EBUSY from I2C_SLAVE): the transfer fails naming the
    /// driver, how to unbind it, and the kernel's own device as the other way.
    @Test func aClaimedAddressNamesTheDriverAndHowToUnbindIt() throws {
        let sysfs = TemporaryDirectory()
        let fake = FakeI2CDev.heldByKernelDriver("inv-mpu6050-i2c", sysfs: sysfs)
        let error = try #require(try readWhoAmI(fake, sysfsRoot: sysfs.path))
        #expect(error.kind == .other)
        for phrase in ["/dev/i2c-1", "0x68", "EBUSY", "claimed", "inv-mpu6050-i2c", "unbind", "echo 1-0068",
                       "/sys/bus/i2c/drivers/inv-mpu6050-i2c/unbind", "IIO"] {
            #expect(error.description.contains(phrase), "missing \(phrase) in: \(error.description)")
        }
    }

    @Test func aClaimedAddressWithoutASysfsEntryStillSaysWhereToUnbind() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.failures[.setTarget] = EBUSY
        let error = try #require(try readWhoAmI(fake))
        #expect(error.kind == .other)
        #expect(error.detail?.contains("/sys/bus/i2c/devices/1-0068/driver/unbind") == true)
    }

    /// A USB adapter unplugged under a reopening bus: its node gone, transfers on the old
    /// descriptor ENODEV. The removal is its own error, carrying that wire error; transfers
    /// throw it as `.other` until the adapter is back.
    @Test func aRemovedAdapterIsSaidAsTheAdaptersRemoval() throws {
        let root = TemporaryDirectory()
        root.file("dev/i2c-1")
        root.file("sys/class/i2c-adapter/i2c-1/name", "i2c-tiny-usb at bus 001 device 007\n")
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        fake.failures[.transfer] = ENODEV
        let bus = try LinuxI2CBus.reopening(
            path: root.path + "/dev/i2c-1", dev: fake, devDirectory: root.path + "/dev", sysfsRoot: root.path + "/sys")
        unlink(root.path + "/dev/i2c-1")
        var thrown: I2CError?
        do throws(I2CError) { _ = try bus.readRegister(0x68, 0x75) } catch { thrown = error }
        let error = try #require(thrown)
        let removal = try #require(bus.removal)
        #expect(error == removal.busError && error.kind == .other)
        #expect(removal.wireError.kind == .noAcknowledge && removal.wireError.detail?.contains("ENODEV") == true)
        for text in [error.description, removal.description] {
            for phrase in ["i2c-1 (i2c-tiny-usb at bus 001 device 007)", "was removed", "ENODEV", "reopened when it comes back"] {
                #expect(text.contains(phrase), "missing \(phrase) in: \(text)")
            }
        }
    }

    @Test(arguments: [
        (EREMOTEIO, I2CStep.transfer, I2CError.Kind.noAcknowledge),
        (ENXIO, .transfer, .noAcknowledge),
        (ENODEV, .transfer, .noAcknowledge),
        (EIO, .transfer, .bus),
        (EPROTO, .transfer, .bus),
        (EBADMSG, .transfer, .bus),
        (EAGAIN, .transfer, .arbitrationLoss),
        (ETIMEDOUT, .transfer, .timeout),
        (EBUSY, .transfer, .timeout),
        (EBUSY, .selectTarget, .other),
        (EACCES, .transfer, .other),
        (EINVAL, .selectTarget, .other),
        (EINVAL, .transfer, .other),
        (EOPNOTSUPP, .transfer, .other),
        (ENOSPC, .transfer, .other),
    ])
    func errnoTable(code: Int32, step: I2CStep, kind: I2CError.Kind) {
        #expect(I2CErrno.kind(for: LinuxErrno(code), during: step) == kind)
    }

    @Test func i2cStubsEmptyAddressIsNoAcknowledgeNotNotFound() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.smbusOnly)
        fake.absentErrno = ENODEV
        let error = try #require(try readWhoAmI(fake))
        #expect(error.kind == .noAcknowledge)
        #expect(error.detail?.contains("ENODEV") == true)
    }

    @Test func aFailedFunctionsQueryClosesTheDescriptor() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.failures[.functions] = ENOTTY
        guard case .failure(let error) = open(fake) else { Issue.record("opened"); return }
        #expect(error == .notAnAdapter(path: "/dev/i2c-1", errno: LinuxErrno(ENOTTY)))
        #expect(error.description.contains("not an I²C adapter"))
        #expect(fake.calls == [.open("/dev/i2c-1"), .functions, .close(42)])
    }

    // MARK: The real kernel, no hardware needed

    @Test func aBusThatDoesNotExistIsNotFound() throws {
        #expect(access("/dev/i2c-99", F_OK) != 0)
        do throws(I2COpenError) {
            _ = try LinuxI2CBus(number: 99)
            Issue.record("opened /dev/i2c-99")
        } catch {
            guard case .notFound = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("/dev/i2c-99"))
            #expect(LinuxHardware.message(for: error).contains("--sim"))
        }
    }

    @Test func aRegularFileIsNotAnAdapter() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("i2c-7", "not a bus")
        do throws(I2COpenError) {
            _ = try LinuxI2CBus(path: path)
            Issue.record("opened a regular file as a bus")
        } catch {
            #expect(error == .notAnAdapter(path: path, errno: LinuxErrno(ENOTTY)))
            #expect(error.description.contains("ENOTTY"))
            #expect(error.description.contains(path))
        }
    }
}
