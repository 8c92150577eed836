#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CI2C

/// The i2c-dev calls `LinuxI2CBus` makes on a `/dev/i2c-N` descriptor. The kernel answers them
/// in production (`KernelI2CDev`); tests put a fake here that returns chosen errnos.
///
/// Every call either succeeds or throws the `errno` the kernel set; none allocates.
protocol I2CDevInterface {
    /// `open(path, O_RDWR | O_CLOEXEC)`.
    func open(_ path: String) throws(LinuxErrno) -> Int32
    func close(_ descriptor: Int32)
    /// `I2C_FUNCS`: the adapter's `I2C_FUNC_*` bits.
    func functions(_ descriptor: Int32) throws(LinuxErrno) -> UInt
    /// `I2C_SLAVE`: later SMBus calls go to `address`. The kernel refuses (EBUSY) when a
    /// driver is bound to that address.
    func setTarget(_ descriptor: Int32, _ address: UInt8) throws(LinuxErrno)
    /// `I2C_RDWR`: the messages as one combined transaction (repeated starts, one stop).
    func transfer(_ descriptor: Int32, _ messages: UnsafeMutableBufferPointer<i2c_msg>) throws(LinuxErrno)
    /// SMBus quick write: the address with the write bit, nothing else.
    func smbusQuickWrite(_ descriptor: Int32) throws(LinuxErrno)
    /// SMBus receive byte: one byte, no register.
    func smbusReadByte(_ descriptor: Int32) throws(LinuxErrno) -> UInt8
    /// SMBus send byte: one byte, no register (sets a register pointer on most chips).
    func smbusWriteByte(_ descriptor: Int32, _ value: UInt8) throws(LinuxErrno)
    /// SMBus read byte data: register `command`.
    func smbusReadByteData(_ descriptor: Int32, _ command: UInt8) throws(LinuxErrno) -> UInt8
    /// SMBus write byte data: `value` into register `command`.
    func smbusWriteByteData(_ descriptor: Int32, _ command: UInt8, _ value: UInt8) throws(LinuxErrno)
    /// I²C block read of `buffer.count` (≤ 32) bytes from register `command`; returns how many came.
    func smbusReadI2CBlock(
        _ descriptor: Int32, _ command: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(LinuxErrno) -> Int
    /// I²C block write of `bytes` (≤ 32) from register `command` on.
    func smbusWriteI2CBlock(_ descriptor: Int32, _ command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(LinuxErrno)
}

/// The real kernel, through libi2c and the CI2C ioctl wrappers.
struct KernelI2CDev: I2CDevInterface {
    func open(_ path: String) throws(LinuxErrno) -> Int32 {
        let descriptor = Glibc.open(path, O_RDWR | O_CLOEXEC)
        if descriptor < 0 { throw .current }
        return descriptor
    }

    func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    func functions(_ descriptor: Int32) throws(LinuxErrno) -> UInt {
        var bits: UInt = 0
        if imu_i2c_functions(descriptor, &bits) < 0 { throw .current }
        return bits
    }

    func setTarget(_ descriptor: Int32, _ address: UInt8) throws(LinuxErrno) {
        if imu_i2c_set_target(descriptor, UInt16(address)) < 0 { throw .current }
    }

    func transfer(_ descriptor: Int32, _ messages: UnsafeMutableBufferPointer<i2c_msg>) throws(LinuxErrno) {
        if imu_i2c_transfer(descriptor, messages.baseAddress, UInt32(messages.count)) < 0 { throw .current }
    }

    // libi2c returns -errno on failure (i2c-tools ≥ 4.0).
    private func check(_ result: Int32) throws(LinuxErrno) -> Int32 {
        if result < 0 { throw LinuxErrno(-result) }
        return result
    }

    func smbusQuickWrite(_ descriptor: Int32) throws(LinuxErrno) {
        _ = try check(i2c_smbus_write_quick(descriptor, UInt8(I2C_SMBUS_WRITE)))
    }

    func smbusReadByte(_ descriptor: Int32) throws(LinuxErrno) -> UInt8 {
        UInt8(truncatingIfNeeded: try check(i2c_smbus_read_byte(descriptor)))
    }

    func smbusWriteByte(_ descriptor: Int32, _ value: UInt8) throws(LinuxErrno) {
        _ = try check(i2c_smbus_write_byte(descriptor, value))
    }

    func smbusReadByteData(_ descriptor: Int32, _ command: UInt8) throws(LinuxErrno) -> UInt8 {
        UInt8(truncatingIfNeeded: try check(i2c_smbus_read_byte_data(descriptor, command)))
    }

    func smbusWriteByteData(_ descriptor: Int32, _ command: UInt8, _ value: UInt8) throws(LinuxErrno) {
        _ = try check(i2c_smbus_write_byte_data(descriptor, command, value))
    }

    func smbusReadI2CBlock(
        _ descriptor: Int32, _ command: UInt8, into buffer: UnsafeMutableRawBufferPointer
    ) throws(LinuxErrno) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let count = try check(i2c_smbus_read_i2c_block_data(
            descriptor, command, UInt8(buffer.count), base.assumingMemoryBound(to: UInt8.self)))
        return Int(count)
    }

    func smbusWriteI2CBlock(_ descriptor: Int32, _ command: UInt8, _ bytes: UnsafeRawBufferPointer) throws(LinuxErrno) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = try check(i2c_smbus_write_i2c_block_data(
            descriptor, command, UInt8(bytes.count), base.assumingMemoryBound(to: UInt8.self)))
    }
}
