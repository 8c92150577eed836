import IMUBus

/// Transfers on adapters without `I2C_FUNC_I2C`, built from SMBus calls.
///
/// What changes from a real combined transaction:
/// - A write-then-read must write exactly one byte (the register); the read becomes I²C block
///   reads of at most 32 bytes, or single-register reads when the adapter has no block read.
/// - Longer reads and writes are split into several transactions, each starting at the next
///   register. The register advances in its low 7 bits only and keeps bit 7: chips such as the
///   LSM9DS1 magnetometer use bit 7 as the auto-increment flag, which the caller has already set.
///   (A chip with 8-bit register addresses crossing 0x7F→0x80 in one read would need a full I²C
///   adapter; none of ours has registers above 0x7F.)
/// - A plain read longer than one byte is impossible (SMBus has no such transfer).
extension LinuxI2CBus {
    /// SMBus's longest I²C block transfer.
    static let smbusBlockMax = 32

    /// `register` advanced by `offset` within its low 7 bits, bit 7 kept.
    static func register(_ register: UInt8, advancedBy offset: Int) -> UInt8 {
        (register & 0x80) | UInt8(truncatingIfNeeded: Int(register & 0x7F) &+ offset) & 0x7F
    }

    /// Consecutive registers: each chunk starts at the register after the last one read. (A
    /// port that does not advance, a FIFO, is the driver's to read in `longestRead` pieces.)
    func smbusWriteRead(
        _ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        guard bytes.count == 1 else {
            throw unsupported(address, "an SMBus adapter can only write a one-byte register before reading (asked \(bytes.count))")
        }
        let first = bytes[0]
        if functions.contains(.smbusReadI2CBlock) && (buffer.count > 1 || !functions.contains(.smbusReadByteData)) {
            var offset = 0
            while offset < buffer.count {
                let length = min(Self.smbusBlockMax, buffer.count - offset)
                let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<(offset + length)])
                let register = Self.register(first, advancedBy: offset)
                let got = try kernel(address) { () throws(LinuxErrno) in
                    try dev.smbusReadI2CBlock(descriptor, register, into: chunk)
                }
                guard got == length else {
                    throw I2CError(.bus, bus: name, address: address,
                                   detail: "short I²C block read at register \(hex(register)): \(got) of \(length) bytes")
                }
                offset += length
            }
        } else if functions.contains(.smbusReadByteData) {
            for offset in 0..<buffer.count {
                let register = Self.register(first, advancedBy: offset)
                buffer[offset] = try kernel(address) { () throws(LinuxErrno) in
                    try dev.smbusReadByteData(descriptor, register)
                }
            }
        } else {
            throw unsupported(address, "register reads need I2C, I²C block read or SMBus read byte")
        }
    }

    func smbusRead(_ address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        guard buffer.count == 1, functions.contains(.smbusReadByte) else {
            throw unsupported(address, "a plain read of \(buffer.count) bytes needs I2C (SMBus receive byte reads one)")
        }
        buffer[0] = try kernel(address) { () throws(LinuxErrno) in try dev.smbusReadByte(descriptor) }
    }

    func smbusWrite(_ address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        switch bytes.count {
        case 0:
            guard functions.contains(.smbusQuick) else { throw unsupported(address, "an empty write needs SMBus quick") }
            try kernel(address) { () throws(LinuxErrno) in try dev.smbusQuickWrite(descriptor) }
        case 1:
            guard functions.contains(.smbusWriteByte) else { throw unsupported(address, "a one-byte write needs SMBus send byte") }
            try kernel(address) { () throws(LinuxErrno) in try dev.smbusWriteByte(descriptor, bytes[0]) }
        case 2 where functions.contains(.smbusWriteByteData):
            try kernel(address) { () throws(LinuxErrno) in try dev.smbusWriteByteData(descriptor, bytes[0], bytes[1]) }
        default:
            let data = UnsafeRawBufferPointer(rebasing: bytes[1...])
            if functions.contains(.smbusWriteI2CBlock) {
                var offset = 0
                while offset < data.count {
                    let length = min(Self.smbusBlockMax, data.count - offset)
                    let chunk = UnsafeRawBufferPointer(rebasing: data[offset..<(offset + length)])
                    let register = Self.register(bytes[0], advancedBy: offset)
                    try kernel(address) { () throws(LinuxErrno) in try dev.smbusWriteI2CBlock(descriptor, register, chunk) }
                    offset += length
                }
            } else if functions.contains(.smbusWriteByteData) {
                for offset in 0..<data.count {
                    let register = Self.register(bytes[0], advancedBy: offset)
                    try kernel(address) { () throws(LinuxErrno) in
                        try dev.smbusWriteByteData(descriptor, register, data[offset])
                    }
                }
            } else {
                throw unsupported(address, "a register write needs I2C, I²C block write or SMBus write byte")
            }
        }
    }
}
