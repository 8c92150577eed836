import IMUGeometry

/// From IIO's units and signs to the project's (pure functions). IIO (Documentation/ABI/testing/
/// sysfs-bus-iio) gives a channel's value as (raw + offset) × scale in the channel type's base
/// unit: acceleration in m/s² of specific force (lying face up reads +9.8 on z), angular velocity
/// in rad/s (right-handed, counter-clockwise positive), magnetic field in gauss, temperature in
/// milli °C. Here: acceleration in g with gravity pointing down, rad/s, µT, °C.
public enum IIOConversion {
    /// Standard gravity (m/s² per g), the constant IIO drivers use for their scales.
    public static let standardGravity = 9.80665
    /// µT per gauss.
    public static let microteslaPerGauss = 100.0

    /// One axis: (raw + offset) × scale, in the channel's IIO unit.
    @inlinable
    public static func value(raw: Double, offset: Double, scale: Double) -> Double { (raw + offset) * scale }

    /// One axis triple in IIO units, turned by the mount matrix (`rows`, row-major) into the
    /// frame the matrix describes: v' = M · v, as the ABI's "mount_matrix" and iio-sensor-proxy
    /// apply it.
    public static func mounted(_ v: Vector3, by rows: [Double]) -> Vector3 {
        precondition(rows.count == 9, "a mount matrix has nine entries")
        return Matrix3(
            rows: Vector3(rows[0], rows[1], rows[2]), Vector3(rows[3], rows[4], rows[5]), Vector3(rows[6], rows[7], rows[8])) * v
    }

    /// m/s² of specific force → g with gravity pointing down (Core Motion's sign).
    public static func acceleration(metresPerSecondSquared a: Vector3) -> Vector3 { -1 / standardGravity * a }

    /// rad/s → rad/s: IIO and Core Motion agree (right-handed, counter-clockwise positive).
    public static func rotationRate(radiansPerSecond w: Vector3) -> Vector3 { w }

    /// gauss → µT.
    public static func magneticField(gauss b: Vector3) -> Vector3 { microteslaPerGauss * b }

    /// milli °C → °C.
    public static func temperature(millidegreesCelsius t: Double) -> Double { t / 1000 }
}
