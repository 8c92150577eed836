import IMUGeometry

/// Accel and gyro words → Core Motion units, written once for every driver: three
/// two's-complement 16-bit words each, in the chip's byte order, scaled by the configured full
/// scales. The chips report specific force (+1 g up when lying still); Core Motion reports
/// gravity pointing down, hence the minus sign, applied here once.
struct SixAxisDecoder {
    enum ByteOrder {
        /// InvenSense: high byte first.
        case bigEndian
        /// ST (BLE = 0, the default): low byte first.
        case littleEndian
    }

    let order: ByteOrder
    private(set) var accelGPerLSB = 0.0
    private(set) var gyroRadiansPerSecondPerLSB = 0.0

    init(order: ByteOrder) {
        self.order = order
    }

    /// Precomputes the conversion factors, so decoding is multiplies only.
    mutating func apply(_ configuration: IMUConfiguration) {
        accelGPerLSB = configuration.accelerometerScale.sensitivity
        gyroRadiansPerSecondPerLSB = configuration.gyroscopeScale.sensitivity * .pi / 180
    }

    @inline(__always)
    func word(_ data: UnsafeRawBufferPointer, at offset: Int) -> Int16 {
        switch order {
        case .bigEndian: RegisterBytes.bigEndianInt16(data, at: offset)
        case .littleEndian: RegisterBytes.littleEndianInt16(data, at: offset)
        }
    }

    /// Three consecutive words as counts.
    @inline(__always)
    func counts(_ data: UnsafeRawBufferPointer, at offset: Int) -> Vector3 {
        Vector3(Double(word(data, at: offset)), Double(word(data, at: offset + 2)), Double(word(data, at: offset + 4)))
    }

    @inline(__always)
    func sample(_ data: UnsafeRawBufferPointer, accelAt a: Int, gyroAt g: Int, timestamp: Double) -> MotionSample {
        MotionSample(
            timestamp: timestamp,
            acceleration: counts(data, at: a) * -accelGPerLSB,
            rotationRate: counts(data, at: g) * gyroRadiansPerSecondPerLSB)
    }
}
