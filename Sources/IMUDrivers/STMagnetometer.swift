import IMUBus
import IMUGeometry

/// What tells one ST magnetometer die from another on the shared register map (the LIS3MDL
/// beside an LSM6DSx, the LSM9DS1's own magnetometer): each part's row is in its register table
/// (`LIS3MDLRegisters.map`, `LSM9DS1Registers.magnetometerMap`) beside its datasheet citations.
struct STMagnetometerMap {
    let rates: [DataRate]
    /// ±gauss, gauss per LSB.
    let scales: [FullScale]
    /// The sensing axes against the accel/gyro axes, a sign per axis (applied on decode).
    let axisSigns: (x: Double, y: Double, z: Double)
    /// Whether CTRL_REG5's BDU is set at configuration (the LIS3MDL; the LSM9DS1 driver leaves it).
    let blockDataUpdate: Bool
}

/// An ST magnetometer as the companion of an accel/gyro part: configured, read (one 6-byte
/// burst), powered down and back. The register map (LIS3MDL DS §7; the same as the LSM9DS1's
/// magnetometer, LSM9DS1 DS §8) is `LIS3MDLRegisters`.
struct STMagnetometer {
    let bus: any I2CBus
    let address: UInt8
    let map: STMagnetometerMap
    private typealias R = LIS3MDLRegisters
    private(set) var microteslaPerLSB = 0.0

    init(bus: any I2CBus, address: UInt8, map: STMagnetometerMap) {
        self.bus = bus
        self.address = address
        self.map = map
    }

    func softReset() throws(IMUDriverError) {
        try bus.write(address, R.control2, R.softReset)
    }

    /// Ultra-high-performance on all three axes, continuous conversion (and BDU where the row
    /// asks), at `rate` and `scale`.
    mutating func configure(rate: DataRate, scale: FullScale) throws(IMUDriverError) {
        try bus.write(address, R.control1, R.rate.replacing(rate.code, in: R.ultraHighPerformanceXY))
        try bus.write(address, R.control2, R.fullScale.replacing(scale.code, in: 0))
        try bus.write(address, R.control4, R.ultraHighPerformanceZ)
        if map.blockDataUpdate { try bus.write(address, R.control5, R.blockDataUpdate) }
        try bus.write(address, R.control3, R.continuous)
        use(scale)
    }

    /// Decodes with `scale`'s sensitivity from now on.
    mutating func use(_ scale: FullScale?) {
        microteslaPerLSB = (scale?.sensitivity ?? 0) * R.microteslaPerGauss
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
            let s = map.axisSigns
            return Vector3(
                s.x * Double(RegisterBytes.littleEndianInt16(data, at: 0)),
                s.y * Double(RegisterBytes.littleEndianInt16(data, at: 2)),
                s.z * Double(RegisterBytes.littleEndianInt16(data, at: 4))) * microteslaPerLSB
        }
    }

    func powerDown() throws(IMUDriverError) { try bus.write(address, R.control3, R.powerDown) }
    func resume() throws(IMUDriverError) { try bus.write(address, R.control3, R.continuous) }
}
