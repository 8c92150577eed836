#if canImport(Glibc)
import Glibc
#endif
import IMUBus
import IMUDevices
import Testing
@testable import IMULinux

/// What runs without GPIO hardware: the paths that find no chip, and the errno table.
@Suite struct LinuxGPIOChipTests {
    private func openError(_ open: () throws(GPIOError) -> LinuxGPIOChip) -> GPIOError? {
        do {
            _ = try open()
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingChipDeviceIsNotFound() throws {
        let error = try #require(openError { () throws(GPIOError) in try LinuxGPIOChip(number: 99) })
        #expect(error.kind == .notFound)
        #expect(error.description.contains("/dev/gpiochip99"))
        #expect(error.detail?.contains("ENOENT") == true)
    }

    @Test func aLabelNoChipCarriesIsNotFoundAndSaysThereAreNoChips() throws {
        let dev = TemporaryDirectory()
        let error = try #require(openError { () throws(GPIOError) in
            try LinuxGPIOChip(label: "pinctrl-bcm2711", deviceDirectory: dev.path)
        })
        #expect(error.kind == .notFound)
        #expect(error.description.contains("pinctrl-bcm2711"))
        #expect(error.description.contains("no GPIO chips in \(dev.path)"))
    }

    @Test func filesThatAreNotChipsAreSkippedWhenLookingForALabel() throws {
        let dev = TemporaryDirectory()
        dev.file("gpiochip0", "not a character device")
        let error = try #require(openError { () throws(GPIOError) in
            try LinuxGPIOChip(label: "pinctrl-rp1", deviceDirectory: dev.path)
        })
        #expect(error.kind == .notFound)
        #expect(error.description.contains("pinctrl-rp1"))
    }

    @Test func aMissingDeviceDirectoryIsNotFound() throws {
        let error = try #require(openError { () throws(GPIOError) in
            try LinuxGPIOChip(label: "pinctrl-bcm2835", deviceDirectory: "/nonexistent/dev")
        })
        #expect(error.kind == .notFound)
    }

    @Test func aRegularFileIsNotAChip() throws {
        let dev = TemporaryDirectory()
        let path = dev.file("gpiochip3", "plain file")
        let error = try #require(openError { () throws(GPIOError) in try LinuxGPIOChip(path: path) })
        #expect(error.kind == .unsupported)
        #expect(error.detail?.contains("ENOTTY") == true)
        #expect(error.description.contains(path))
    }

    @Test(arguments: [
        (EBUSY, GPIOError.Kind.busy),
        (EACCES, .permissionDenied),
        (EPERM, .permissionDenied),
        (ENOENT, .notFound),
        (ENODEV, .notFound),
        (EINVAL, .invalidLine),
        (EOPNOTSUPP, .unsupported),
        (ENOTTY, .unsupported),
        (EIO, .io),
    ])
    func errnoTable(code: Int32, kind: GPIOError.Kind) {
        #expect(GPIOErrno.kind(for: LinuxErrno(code)) == kind)
    }

    @Test func aBusyLineNamesWhoHoldsIt() {
        let error = GPIOErrno.error(LinuxErrno(EBUSY), chip: "gpiochip0", line: 17, consumer: "imu-relay")
        #expect(error.kind == .busy)
        #expect(error.description.contains("line 17 of gpiochip0"))
        #expect(error.description.contains("\"imu-relay\""))
        #expect(error.description.contains("already in use"))
    }

    /// The error says what happened; the advice to join the gpio group is the opener's, added
    /// where the error reaches the user (`HeaderGPIO.advice(for:)`).
    @Test func permissionDeniedTellsTheUserToJoinTheGpioGroup() {
        let error = GPIOErrno.error(LinuxErrno(EACCES), chip: "/dev/gpiochip0")
        #expect(error.description.contains("permission denied") && error.description.contains("EACCES"))
        #expect(HeaderGPIO.advice(for: error)?.contains("gpio group") == true)
        #expect(HeaderGPIO.advice(for: GPIOErrno.error(LinuxErrno(EBUSY), chip: "/dev/gpiochip0", line: 4)) == nil)
    }

    @Test func theBridgeWasBuiltAgainstTheInstalledLibgpiod() {
        // Debian 12 ships libgpiod 1.6; Scripts/check-libgpiod-v2.sh covers the 2.x branch.
        let v1Header = access("/usr/include/gpiod.h", F_OK) == 0 && Self.headerDeclaresBulk()
        #expect(LinuxGPIOChip.libgpiodAPIVersion == (v1Header ? 1 : 2))
    }

    private static func headerDeclaresBulk() -> Bool {
        guard let file = fopen("/usr/include/gpiod.h", "r") else { return false }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            if String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).contains("GPIOD_LINE_BULK_MAX_LINES") { return true }
        }
        return false
    }
}
