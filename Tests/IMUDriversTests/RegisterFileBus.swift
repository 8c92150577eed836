import IMUBus

/// A bus of plain register files (256 bytes per address, reads auto-increment, no chip
/// behaviour): enough to pin the drivers' decoding, register writes and transaction counts
/// exactly. The twin tests the chip behaviour end to end.
final class RegisterFileBus: I2CBus {
    let name = "test"
    var registers: [UInt8: [UInt8]] = [:]
    private(set) var transactions = 0
    /// Register pointers are masked with this (0x7F: the LSM9DS1 magnetometer's MSB is the
    /// auto-increment flag, not part of the address).
    var addressMask: UInt8 = 0x7F

    /// What `longestRead` says (a FIFO port is read in pieces of this many bytes).
    var longestRead = Int.max
    /// Every read's start register and length, in order.
    private(set) var reads: [(address: UInt8, register: UInt8, count: Int)] = []

    init(devices: [UInt8]) {
        for address in devices { registers[address] = [UInt8](repeating: 0, count: 256) }
    }

    func set(_ address: UInt8, _ register: UInt8, _ bytes: [UInt8]) {
        for (i, byte) in bytes.enumerated() { registers[address]![Int(register) + i] = byte }
    }

    func get(_ address: UInt8, _ register: UInt8) -> UInt8 { registers[address]![Int(register)] }

    func write(_ address: UInt8, _ bytes: UnsafeRawBufferPointer) throws(I2CError) {
        transactions += 1
        guard registers[address] != nil else { throw I2CError(.noAcknowledge, bus: name, address: address) }
        guard let first = bytes.first else { return }
        let start = Int(first & addressMask)
        for (i, byte) in bytes.dropFirst().enumerated() { registers[address]![start + i] = byte }
    }

    func read(_ address: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(I2CError) {
        transactions += 1
        throw I2CError(.other, bus: name, address: address, detail: "plain reads are not used by the drivers")
    }

    func transaction(_ address: UInt8, _ operations: UnsafeMutableBufferPointer<I2COperation>) throws(I2CError) {
        try transactionAsTransfers(address, operations)
    }

    func writeRead(
        _ address: UInt8, _ bytes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) throws(I2CError) {
        transactions += 1
        guard let file = registers[address] else { throw I2CError(.noAcknowledge, bus: name, address: address) }
        let start = Int(bytes[0] & addressMask)
        reads.append((address, bytes[0], buffer.count))
        for i in 0..<buffer.count { buffer[i] = file[(start + i) & 0xFF] }
    }
}

final class TestClock: MonotonicClock {
    var now = 100.0
    func sleep(seconds: Double) { now += seconds }
}

func bigEndian(_ values: [Int16]) -> [UInt8] {
    values.flatMap { [UInt8(truncatingIfNeeded: UInt16(bitPattern: $0) >> 8), UInt8(truncatingIfNeeded: $0)] }
}

func littleEndian(_ values: [Int16]) -> [UInt8] {
    values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: UInt16(bitPattern: $0) >> 8)] }
}
