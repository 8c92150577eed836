#if canImport(Glibc)
import Glibc
#endif
import CI2C
import IMUBus
import Testing
@testable import IMULinux

/// SMBus-only adapters (i2c-stub, PC SMBus hosts): the same calls, made of SMBus transfers.
@Suite struct SMBusFallbackTests {
    private func smbusBus(_ functions: I2CAdapterFunctions = FakeI2CDev.smbusOnly) throws -> (LinuxI2CBus, FakeI2CDev) {
        let fake = FakeI2CDev(functions: functions)
        fake.devices[0x68] = countingRegisters()
        fake.devices[0x1C] = countingRegisters()
        return (try LinuxI2CBus(path: "/dev/i2c-0", dev: fake, sysfsRoot: "/nonexistent"), fake)
    }

    private func smbusCalls(_ fake: FakeI2CDev) -> [FakeI2CDev.Call] {
        fake.calls.filter {
            switch $0 {
            case .open, .close, .functions, .setTarget: false
            default: true
            }
        }
    }

    @Test func aFortyByteReadIsBlocksOf32And8AtTheRightRegisters() throws {
        let (bus, fake) = try smbusBus()
        let bytes = try bus.readRegisters(0x68, 0x10, count: 40)
        #expect(bytes == Array(0x10..<0x38))
        #expect(smbusCalls(fake) == [.readBlock(0x10, 32), .readBlock(0x30, 8)])
        #expect(!fake.calls.contains { if case .transfer = $0 { true } else { false } })
    }

    @Test func chunksKeepTheAutoIncrementBitAndAdvanceTheLow7Bits() throws {
        let (bus, fake) = try smbusBus()
        // LSM9DS1 magnetometer: OUT_X_L (0x28) with the auto-increment flag → 0xA8.
        _ = try bus.readRegisters(0x1C, 0xA8, count: 40)
        #expect(smbusCalls(fake) == [.readBlock(0xA8, 32), .readBlock(0xC8, 8)])
    }

    /// A FIFO port (MPU-6050 FIFO_R_W, 0x74) does not advance: the driver reads it in pieces of
    /// `longestRead`, each addressing the port again; the bus says how long a piece may be.
    @Test func aFIFOPortIsReadAgainAtTheSameRegister() throws {
        let (bus, fake) = try smbusBus()
        #expect(bus.longestRead == 32)
        try withUnsafeTemporaryAllocation(byteCount: 40, alignment: 1) { buffer in
            try bus.readRegisters(0x68, 0x74, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<32]))
            try bus.readRegisters(0x68, 0x74, into: UnsafeMutableRawBufferPointer(rebasing: buffer[32..<40]))
        }
        #expect(smbusCalls(fake) == [.readBlock(0x74, 32), .readBlock(0x74, 8)])
        let (byteReads, _) = try smbusBus(FakeI2CDev.smbusOnly.subtracting(.smbusReadI2CBlock))
        #expect(byteReads.longestRead == 1)
    }

    @Test func theLow7BitsWrapWithoutTouchingBit7() {
        #expect(LinuxI2CBus.register(0xF0, advancedBy: 32) == 0x90)
        #expect(LinuxI2CBus.register(0x70, advancedBy: 32) == 0x10)
        #expect(LinuxI2CBus.register(0x3B, advancedBy: 0) == 0x3B)
    }

    @Test func withoutBlockReadsEachRegisterIsReadAlone() throws {
        let (bus, fake) = try smbusBus(FakeI2CDev.smbusOnly.subtracting(.smbusReadI2CBlock))
        let bytes = try bus.readRegisters(0x68, 0x3B, count: 3)
        #expect(bytes == [0x3B, 0x3C, 0x3D])
        #expect(smbusCalls(fake) == [.readByteData(0x3B), .readByteData(0x3C), .readByteData(0x3D)])
    }

    @Test func aSingleRegisterIsReadByteData() throws {
        let (bus, fake) = try smbusBus()
        #expect(try bus.readRegister(0x68, 0x75) == 0x75)
        #expect(smbusCalls(fake) == [.readByteData(0x75)])
    }

    @Test func writesBecomeByteDataOrBlocks() throws {
        let (bus, fake) = try smbusBus()
        try bus.writeRegister(0x68, 0x6B, 0x00)
        let long = [UInt8(0x20)] + (0..<40).map { UInt8($0) }
        try long.withUnsafeBytes { bytes in try bus.write(0x68, bytes) }
        #expect(smbusCalls(fake) == [
            .writeByteData(0x6B, 0x00),
            .writeBlock(0x20, Array(0..<32)),
            .writeBlock(0x40, Array(32..<40)),
        ])
        #expect(fake.devices[0x68]?[0x20..<0x48].elementsEqual(0..<40) == true)
    }

    @Test func writingMoreThanTheRegisterBeforeAReadIsUnsupported() throws {
        let (bus, _) = try smbusBus()
        var out: (UInt8, UInt8) = (0x00, 0x10)
        var into: UInt8 = 0
        do {
            try withUnsafeBytes(of: &out) { (bytes) throws(I2CError) in
                try withUnsafeMutableBytes(of: &into) { (buffer) throws(I2CError) in
                    try bus.writeRead(0x50, bytes, into: buffer)
                }
            }
            Issue.record("a two-byte write before a read went through SMBus")
        } catch {
            #expect(error.kind == .other)
            #expect(error.description.contains("cannot do"))
            #expect(error.description.contains("one-byte register"))
            #expect(error.description.contains("I2C block read"))  // what the adapter can do
        }
    }

    @Test func anAdapterWithNoRegisterReadsSaysSo() throws {
        let (bus, _) = try smbusBus([.smbusQuick])
        #expect(throws: I2CError.self) { try bus.readRegister(0x68, 0x75) }
        do {
            _ = try bus.readRegister(0x68, 0x75)
        } catch {
            #expect(error.kind == .other)
            #expect(error.description.contains("cannot do"))
            #expect(error.description.contains("0x68"))
            #expect(error.description.contains("SMBus quick"))
        }
    }

    @Test func aShortBlockReadIsAnIOError() throws {
        final class ShortBlocks: I2CDevInterface {
            let inner = FakeI2CDev(functions: FakeI2CDev.smbusOnly)
            func open(_ path: String) throws(LinuxErrno) -> Int32 { try inner.open(path) }
            func close(_ descriptor: Int32) {}
            func functions(_ descriptor: Int32) throws(LinuxErrno) -> UInt { try inner.functions(descriptor) }
            func setTarget(_ descriptor: Int32, _ address: UInt8) throws(LinuxErrno) {}
            func transfer(_ descriptor: Int32, _ messages: UnsafeMutableBufferPointer<i2c_msg>) throws(LinuxErrno) {}
            func smbusQuickWrite(_ descriptor: Int32) throws(LinuxErrno) {}
            func smbusReadByte(_ descriptor: Int32) throws(LinuxErrno) -> UInt8 { 0 }
            func smbusWriteByte(_ descriptor: Int32, _ value: UInt8) throws(LinuxErrno) {}
            func smbusReadByteData(_ descriptor: Int32, _ command: UInt8) throws(LinuxErrno) -> UInt8 { 0 }
            func smbusWriteByteData(_ descriptor: Int32, _ command: UInt8, _ value: UInt8) throws(LinuxErrno) {}
            func smbusReadI2CBlock(_ descriptor: Int32, _ command: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(LinuxErrno) -> Int {
                buffer.count - 1
            }
            func smbusWriteI2CBlock(_ descriptor: Int32, _ command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(LinuxErrno) {}
        }
        let bus = try LinuxI2CBus(path: "/dev/i2c-0", dev: ShortBlocks(), sysfsRoot: "/nonexistent")
        do {
            _ = try bus.readRegisters(0x68, 0x3B, count: 14)
            Issue.record("a short block read passed")
        } catch {
            #expect(error.kind == .bus)
            #expect(error.description.contains("13 of 14"))
        }
    }
}
