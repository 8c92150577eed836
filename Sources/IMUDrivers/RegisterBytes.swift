/// Two's-complement 16-bit values as the chips lay them out in their output registers.
enum RegisterBytes {
    /// MPU-6050 order: high byte first.
    @inline(__always)
    static func bigEndianInt16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }

    /// LSM9DS1 order (with BLE = 0, its default): low byte first.
    @inline(__always)
    static func littleEndianInt16(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
    }

    /// Every byte 0xFF: what a read returns when the data line floats high under its pull-up
    /// while something still acknowledges. Never a reading: −1 LSB on every axis at once would
    /// be free fall with each accelerometer and gyro axis exactly one count below zero, where
    /// the noise alone is several counts.
    @inline(__always)
    static func allOnes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        !bytes.contains { $0 != 0xFF }
    }
}

/// A field of bits inside a register: `mask` in place, so `(value & mask) >> shift`.
struct RegisterField: Sendable {
    let register: UInt8
    let mask: UInt8

    var shift: UInt8 { UInt8(mask.trailingZeroBitCount) }

    /// `current` with this field replaced by `code`.
    func replacing(_ code: UInt8, in current: UInt8) -> UInt8 {
        (current & ~mask) | ((code << shift) & mask)
    }

    func code(in value: UInt8) -> UInt8 { (value & mask) >> shift }
}
