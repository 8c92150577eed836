#if canImport(Glibc)
import Glibc
#endif
import CI2C
@testable import IMULinux

/// An i2c-dev stand-in: devices are 256-byte register files at chosen addresses, every call is
/// recorded, and any step can be made to fail with a chosen errno.
final class FakeI2CDev: I2CDevInterface {
    enum Step: Hashable { case open, functions, setTarget, transfer, smbus }

    struct Message: Equatable {
        var address: UInt16
        var isRead: Bool
        var length: Int
        var written: [UInt8]
    }

    enum Call: Equatable {
        case open(String), close(Int32), functions, setTarget(UInt8), transfer([Message])
        case quickWrite, readByte, writeByte(UInt8), readByteData(UInt8), writeByteData(UInt8, UInt8)
        case readBlock(UInt8, Int), writeBlock(UInt8, [UInt8])
    }

    var functions: I2CAdapterFunctions
    var devices: [UInt8: [UInt8]] = [:]
    var failures: [Step: Int32] = [:]
    /// What an empty address answers: ENXIO on most adapters, ENODEV on i2c-stub.
    var absentErrno: Int32 = ENXIO
    /// Addresses a kernel driver is bound to: `I2C_SLAVE` says EBUSY there.
    var claimed: Set<UInt8> = []
    private(set) var calls: [Call] = []
    private var target: UInt8?
    private var pointer: [UInt8: Int] = [:]

    init(functions: I2CAdapterFunctions) {
        self.functions = functions
    }

    static let smbusOnly: I2CAdapterFunctions = [
        .smbusQuick, .smbusReadByte, .smbusWriteByte, .smbusReadByteData, .smbusWriteByteData,
        .smbusReadI2CBlock, .smbusWriteI2CBlock,
    ]
    static let fullI2C: I2CAdapterFunctions = smbusOnly.union(.i2c)

    private func fail(_ step: Step) throws(LinuxErrno) {
        if let code = failures[step] { throw LinuxErrno(code) }
    }

    private func device(_ address: UInt8?) throws(LinuxErrno) -> UInt8 {
        guard let address, devices[address] != nil else { throw LinuxErrno(absentErrno) }
        return address
    }

    private func readRegisters(_ address: UInt8, from start: Int, count: Int) -> [UInt8] {
        (0..<count).map { devices[address]![(start + $0) & 0xFF] }
    }

    private func writeRegisters(_ address: UInt8, from start: Int, _ bytes: [UInt8]) {
        for (i, byte) in bytes.enumerated() { devices[address]![(start + i) & 0xFF] = byte }
    }

    // MARK: I2CDevInterface

    func open(_ path: String) throws(LinuxErrno) -> Int32 {
        calls.append(.open(path))
        try fail(.open)
        return 42
    }

    func close(_ descriptor: Int32) {
        calls.append(.close(descriptor))
    }

    func functions(_ descriptor: Int32) throws(LinuxErrno) -> UInt {
        calls.append(.functions)
        try fail(.functions)
        return functions.rawValue
    }

    func setTarget(_ descriptor: Int32, _ address: UInt8) throws(LinuxErrno) {
        calls.append(.setTarget(address))
        if claimed.contains(address) { throw LinuxErrno(EBUSY) }
        try fail(.setTarget)
        target = address
    }

    func transfer(_ descriptor: Int32, _ messages: UnsafeMutableBufferPointer<i2c_msg>) throws(LinuxErrno) {
        let recorded = messages.map { message in
            let isRead = message.flags & UInt16(I2C_M_RD) != 0
            let written = isRead ? [] : Array(UnsafeBufferPointer(start: message.buf, count: Int(message.len)))
            return Message(address: message.addr, isRead: isRead, length: Int(message.len), written: written)
        }
        calls.append(.transfer(recorded))
        try fail(.transfer)
        for (index, message) in messages.enumerated() {
            let address = try device(UInt8(message.addr))
            if recorded[index].isRead {
                let bytes = readRegisters(address, from: pointer[address, default: 0], count: Int(message.len))
                for (i, byte) in bytes.enumerated() { message.buf[i] = byte }
                pointer[address, default: 0] += bytes.count
            } else if let first = recorded[index].written.first {
                pointer[address] = Int(first)
                writeRegisters(address, from: Int(first), Array(recorded[index].written.dropFirst()))
            }
        }
    }

    func smbusQuickWrite(_ descriptor: Int32) throws(LinuxErrno) {
        calls.append(.quickWrite)
        try fail(.smbus)
        _ = try device(target)
    }

    func smbusReadByte(_ descriptor: Int32) throws(LinuxErrno) -> UInt8 {
        calls.append(.readByte)
        try fail(.smbus)
        let address = try device(target)
        return readRegisters(address, from: pointer[address, default: 0], count: 1)[0]
    }

    func smbusWriteByte(_ descriptor: Int32, _ value: UInt8) throws(LinuxErrno) {
        calls.append(.writeByte(value))
        try fail(.smbus)
        pointer[try device(target)] = Int(value)
    }

    func smbusReadByteData(_ descriptor: Int32, _ command: UInt8) throws(LinuxErrno) -> UInt8 {
        calls.append(.readByteData(command))
        try fail(.smbus)
        return readRegisters(try device(target), from: Int(command), count: 1)[0]
    }

    func smbusWriteByteData(_ descriptor: Int32, _ command: UInt8, _ value: UInt8) throws(LinuxErrno) {
        calls.append(.writeByteData(command, value))
        try fail(.smbus)
        writeRegisters(try device(target), from: Int(command), [value])
    }

    func smbusReadI2CBlock(
        _ descriptor: Int32, _ command: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(LinuxErrno) -> Int {
        calls.append(.readBlock(command, buffer.count))
        try fail(.smbus)
        let bytes = readRegisters(try device(target), from: Int(command), count: buffer.count)
        buffer.copyBytes(from: bytes)
        return bytes.count
    }

    func smbusWriteI2CBlock(_ descriptor: Int32, _ command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(LinuxErrno) {
        calls.append(.writeBlock(command, Array(bytes)))
        try fail(.smbus)
        writeRegisters(try device(target), from: Int(command), Array(bytes))
    }
}

/// A device whose register r holds r (easy to check which registers a read touched).
func countingRegisters() -> [UInt8] {
    (0...255).map { UInt8($0) }
}

extension FakeI2CDev {
    /// A full I²C adapter (bus 1) with a counting chip at 0x68 that the kernel driver `driver`
    /// holds: `I2C_SLAVE` says EBUSY there, and `sysfs` links the device to its driver.
    static func heldByKernelDriver(_ driver: String, sysfs: TemporaryDirectory) -> FakeI2CDev {
        sysfs.symlink("bus/i2c/devices/1-0068/driver", to: "../../../../bus/i2c/drivers/\(driver)")
        let fake = FakeI2CDev(functions: fullI2C)
        fake.devices[0x68] = countingRegisters()
        fake.claimed = [0x68]
        return fake
    }
}
