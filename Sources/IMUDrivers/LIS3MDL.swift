import IMUBus
import IMUGeometry

/// The ST LIS3MDL magnetometer as the companion of an accel/gyro part (a BerryIMU v3's, an
/// Adafruit FeatherWing's): configured, read (one 6-byte burst), powered down and back.
/// Tables in `LIS3MDLRegisters`.
struct LIS3MDL {
    let bus: any I2CBus
    let address: UInt8
    private typealias R = LIS3MDLRegisters
    private(set) var microteslaPerLSB = 0.0

    init(bus: any I2CBus, address: UInt8) {
        self.bus = bus
        self.address = address
    }

    func softReset() throws(IMUDriverError) {
        try bus.write(address, R.control2, R.softReset)
    }

    /// Ultra-high-performance on all three axes, continuous conversion, BDU, at `rate` and `scale`.
    mutating func configure(rate: DataRate, scale: FullScale) throws(IMUDriverError) {
        try bus.write(address, R.control1, R.rate.replacing(rate.code, in: R.ultraHighPerformanceXY))
        try bus.write(address, R.control2, R.fullScale.replacing(scale.code, in: 0))
        try bus.write(address, R.control4, R.ultraHighPerformanceZ)
        try bus.write(address, R.control5, R.blockDataUpdate)
        try bus.write(address, R.control3, R.continuous)
        microteslaPerLSB = scale.sensitivity * R.microteslaPerGauss
    }

    /// The field in µT, in the accel/gyro part's axes.
    func readField() throws(IMUDriverError) -> Vector3 {
        var bytes: UInt64 = 0
        return try withUnsafeMutableBytes(of: &bytes) { (raw) throws(IMUDriverError) -> Vector3 in
            let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[0..<6])
            try bus.burst(address, R.xLow | R.autoIncrement, into: buffer)
            let data = UnsafeRawBufferPointer(buffer)
            guard !RegisterBytes.allOnes(data) else {
                throw .implausible(bus: bus.name, address: address, what: "a magnetic field of all 0xFF")
            }
            let s = R.axisSigns
            return Vector3(
                s.x * Double(RegisterBytes.littleEndianInt16(data, at: 0)),
                s.y * Double(RegisterBytes.littleEndianInt16(data, at: 2)),
                s.z * Double(RegisterBytes.littleEndianInt16(data, at: 4))) * microteslaPerLSB
        }
    }

    func powerDown() throws(IMUDriverError) { try bus.write(address, R.control3, R.powerDown) }
    func resume() throws(IMUDriverError) { try bus.write(address, R.control3, R.continuous) }
}
