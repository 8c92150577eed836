import IMUGeometry

/// What one chip's sensors are exposed to at an instant, in the chip's accel/gyro axes, before
/// any sensor error: the board computes it from the scenario and the chip's mounting.
public struct ChipInput: Sendable, Equatable {
    /// Specific force, g (face up at rest: +1 on the axis pointing up).
    public var specificForceG: Vector3
    public var rotationRateRadiansPerSecond: Vector3
    /// Magnetic field in the accel/gyro axes, µT (the LSM9DS1 turns it into its magnetometer's axes).
    public var magneticFieldMicrotesla: Vector3
    public var temperatureCelsius: Double

    public init(specificForceG: Vector3, rotationRateRadiansPerSecond: Vector3, magneticFieldMicrotesla: Vector3, temperatureCelsius: Double) {
        self.specificForceG = specificForceG
        self.rotationRateRadiansPerSecond = rotationRateRadiansPerSecond
        self.magneticFieldMicrotesla = magneticFieldMicrotesla
        self.temperatureCelsius = temperatureCelsius
    }

    /// Lying face up at rest in Berlin, chip axes = device axes.
    public static let faceUpAtRest = ChipInput(
        specificForceG: Vector3(0, 0, 1), rotationRateRadiansPerSecond: .zero,
        magneticFieldMicrotesla: EarthField.berlin.enuMicrotesla, temperatureCelsius: 25)
}

/// The truth at virtual time t (seconds).
public typealias ChipInputSource = (Double) -> ChipInput

/// Register-value helpers shared by the chip emulators.
enum Raw {
    /// Rounds and saturates to a 16-bit two's complement value, as the chips' ADC paths do.
    static func int16(_ value: Double) -> Int16 {
        if value.isNaN { return 0 }
        return Int16(max(-32768, min(32767, value.rounded())))
    }

    static func bigEndian(_ v: Int16) -> (UInt8, UInt8) {
        let u = UInt16(bitPattern: v)
        return (UInt8(u >> 8), UInt8(u & 0xFF))
    }

    /// The high or low byte of `v`, for an output register pair whose byte order is set (the ST
    /// chips' BLE): with `bigEndian` the lower address holds the high byte.
    static func byte(_ v: Int16, high: Bool, bigEndian: Bool) -> UInt8 {
        let (low, hi) = littleEndian(v)
        return high != bigEndian ? hi : low
    }

    static func littleEndian(_ v: Int16) -> (UInt8, UInt8) {
        let u = UInt16(bitPattern: v)
        return (UInt8(u & 0xFF), UInt8(u >> 8))
    }
}
