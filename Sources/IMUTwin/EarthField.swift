import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The geomagnetic field at a place, as magnetometers see it, in ENU (x east, y north, z up).
public struct EarthField: Sendable, Equatable {
    /// Total intensity in µT.
    public var totalMicrotesla: Double
    /// Dip below the horizontal, degrees (positive: field points down, northern hemisphere).
    public var inclinationDegrees: Double
    /// Magnetic north east of true north, degrees.
    public var declinationDegrees: Double

    public init(totalMicrotesla: Double, inclinationDegrees: Double, declinationDegrees: Double) {
        self.totalMicrotesla = totalMicrotesla
        self.inclinationDegrees = inclinationDegrees
        self.declinationDegrees = declinationDegrees
    }

    /// Berlin, rounded values of the World Magnetic Model for the mid-2020s: 49.6 µT, dip 67.5°,
    /// declination +4.5° (east). ENU ≈ (1.49, 18.92, −45.82) µT.
    public static let berlin = EarthField(totalMicrotesla: 49.6, inclinationDegrees: 67.5, declinationDegrees: 4.5)

    /// The field vector in ENU, µT.
    public var enuMicrotesla: Vector3 {
        let dip = inclinationDegrees * .pi / 180
        let dec = declinationDegrees * .pi / 180
        let horizontal = totalMicrotesla * cos(dip)
        return Vector3(horizontal * sin(dec), horizontal * cos(dec), -totalMicrotesla * sin(dip))
    }
}
