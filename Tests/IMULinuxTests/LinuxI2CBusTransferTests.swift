#if canImport(Glibc)
import Glibc
#endif
import IMUBus
import Testing
@testable import IMULinux

@Suite struct LinuxI2CBusTransferTests {
    private func bus(_ fake: FakeI2CDev) throws -> LinuxI2CBus {
        try LinuxI2CBus(path: "/dev/i2c-1", dev: fake, sysfsRoot: "/nonexistent")
    }

    private func transfers(_ fake: FakeI2CDev) -> [[FakeI2CDev.Message]] {
        fake.calls.compactMap { if case .transfer(let messages) = $0 { messages } else { nil } }
    }

    @Test func aRegisterReadIsOneCombinedTransaction() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        let bus = try bus(fake)
        #expect(bus.functions.contains(.i2c))

        let bytes = try bus.readRegisters(0x68, 0x3B, count: 14)

        #expect(bytes == Array(0x3B...0x48))
        #expect(transfers(fake) == [[
            .init(address: 0x68, isRead: false, length: 1, written: [0x3B]),
            .init(address: 0x68, isRead: true, length: 14, written: []),
        ]])
    }

    @Test func theTargetAddressIsSetOncePerAddress() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        fake.devices[0x1C] = countingRegisters()
        let bus = try bus(fake)
        _ = try bus.readRegister(0x68, 0x75)
        _ = try bus.readRegister(0x68, 0x75)
        _ = try bus.readRegister(0x1C, 0x0F)
        _ = try bus.readRegister(0x68, 0x75)
        let targets = fake.calls.compactMap { if case .setTarget(let address) = $0 { address } else { nil } }
        #expect(targets == [0x68, 0x1C, 0x68])
    }

    @Test func aRefusedTargetIsAskedAgainNextTime() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        fake.failures[.setTarget] = EBUSY
        let bus = try bus(fake)
        #expect(throws: I2CError.self) { try bus.readRegister(0x68, 0x75) }
        fake.failures[.setTarget] = nil
        #expect(try bus.readRegister(0x68, 0x75) == 0x75)
    }

    @Test func aRegisterWriteIsOneMessage() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        let bus = try bus(fake)
        try bus.writeRegister(0x68, 0x6B, 0x01)
        #expect(transfers(fake) == [[.init(address: 0x68, isRead: false, length: 2, written: [0x6B, 0x01])]])
        #expect(fake.devices[0x68]?[0x6B] == 0x01)
    }

    @Test func closingTheBusClosesTheDescriptor() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        do { _ = try bus(fake) }
        #expect(fake.calls.last == .close(42))
    }

    // MARK: Presence and scan

    @Test func presenceUsesQuickWriteExceptWhereEEPROMsLive() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        fake.devices[0x50] = countingRegisters()
        let bus = try bus(fake)

        #expect(try bus.isPresent(0x68))
        #expect(fake.calls.last == .quickWrite)
        #expect(try bus.isPresent(0x50))
        #expect(transfers(fake).last == [.init(address: 0x50, isRead: true, length: 1, written: [])])
        #expect(try bus.isPresent(0x69) == false)
        #expect(try bus.isPresent(0x33) == false)
        #expect(transfers(fake).last == [.init(address: 0x33, isRead: true, length: 1, written: [])])
    }

    @Test func withoutQuickCommandPresenceReadsOneByte() throws {
        let fake = FakeI2CDev(functions: [.i2c])
        fake.devices[0x6A] = countingRegisters()
        let bus = try bus(fake)
        #expect(try bus.isPresent(0x6A))
        #expect(!fake.calls.contains(.quickWrite))
        #expect(transfers(fake) == [[.init(address: 0x6A, isRead: true, length: 1, written: [])]])
    }

    @Test func scanFindsTheChipsLikeI2CDetect() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.smbusOnly)
        fake.absentErrno = ENODEV  // as i2c-stub answers
        fake.devices[0x1C] = countingRegisters()
        fake.devices[0x6A] = countingRegisters()
        fake.devices[0x57] = countingRegisters()
        let bus = try bus(fake)
        #expect(try bus.scan() == [0x1C, 0x57, 0x6A])
    }

    /// i2cdetect's `UU`: present (a scan lists it), claimed, and a transfer there fails naming
    /// the driver.
    @Test func anAddressAKernelDriverHoldsIsClaimedNotAbsent() throws {
        let sysfs = TemporaryDirectory()
        let fake = FakeI2CDev.heldByKernelDriver("rtc-ds1307", sysfs: sysfs)
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", dev: fake, sysfsRoot: sysfs.path)
        #expect(try bus.status(of: 0x68) == .claimed(driver: "rtc-ds1307"))
        #expect(try bus.isPresent(0x68))
        #expect(try bus.scan(0x68...0x68) == [0x68])
        let claim = try #require(bus.claim(of: 0x68))
        #expect(claim.contains("rtc-ds1307") && claim.contains("unbind"), "\(claim)")
        do {
            _ = try bus.readRegister(0x68, 0x75)
            Issue.record("read an address a kernel driver holds")
        } catch {
            #expect(error.kind == .other)
            #expect(error.description.contains("rtc-ds1307"))
        }
    }

    @Test func anAddressNoDriverHoldsIsNotClaimed() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.devices[0x68] = countingRegisters()
        let bus = try LinuxI2CBus(path: "/dev/i2c-1", dev: fake, sysfsRoot: "/nonexistent")
        #expect(bus.claim(of: 0x68) == nil)
        #expect(try bus.readRegister(0x68, 0x75) == 0x75)
    }

    @Test func presenceRethrowsFailuresOtherThanNoAcknowledge() throws {
        let fake = FakeI2CDev(functions: FakeI2CDev.fullI2C)
        fake.failures[.smbus] = ETIMEDOUT
        let bus = try bus(fake)
        #expect(throws: I2CError(.timeout, bus: "/dev/i2c-1", address: 0x68, detail: LinuxErrno(ETIMEDOUT).description)) {
            try bus.isPresent(0x68)
        }
    }
}
