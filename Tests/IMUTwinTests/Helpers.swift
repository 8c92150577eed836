import IMUBus
import IMUGeometry
@testable import IMUTwin

extension I2CBus {
    /// Reads `count` registers from `register` in one transaction.
    func bytes(_ address: UInt8, _ register: UInt8, _ count: Int) throws -> [UInt8] {
        try readRegisters(address, register, count: count)
    }
}

func int16BigEndian(_ bytes: [UInt8], _ offset: Int) -> Int16 {
    Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
}

func int16LittleEndian(_ bytes: [UInt8], _ offset: Int) -> Int16 {
    Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
}

func near(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 1e-6) -> Bool {
    (a - b).length <= tolerance
}
