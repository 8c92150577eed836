#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A place on the WGS-84 ellipsoid and a time: what the field depends on.
public struct GeodeticLocation: Sendable, Equatable {
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive.
    public var longitude: Double
    /// Height above the WGS-84 ellipsoid, in km.
    public var heightKilometers: Double

    public init(latitude: Double, longitude: Double, heightKilometers: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.heightKilometers = heightKilometers
    }
}

/// The main geomagnetic field at a place and time, in the local geodetic frame.
public struct GeomagneticField: Sendable, Equatable {
    /// North, east and down components, in nT.
    public var north: Double
    public var east: Double
    public var down: Double

    public var horizontalIntensity: Double { (north * north + east * east).squareRoot() }
    public var totalIntensity: Double { (north * north + east * east + down * down).squareRoot() }
    /// Degrees east of true north that a compass points (the magnetic declination).
    public var declination: Double { atan2(east, north) * 180 / .pi }
    /// Degrees below the horizontal (the dip).
    public var inclination: Double { atan2(down, horizontalIntensity) * 180 / .pi }
    /// The field in µT in ENU axes (x east, y north, z up), the project's reference frame.
    public var eastNorthUpMicrotesla: (east: Double, north: Double, up: Double) {
        (east / 1000, north / 1000, -down / 1000)
    }
}

/// The World Magnetic Model: the spherical-harmonic synthesis of the WMM technical report
/// (NOAA/BGS), evaluated with Schmidt semi-normalised associated Legendre functions.
public enum WorldMagneticModel {
    /// WGS-84 semi-major axis (km) and flattening; the model's reference radius (km).
    static let semiMajorAxis = 6378.137
    static let flattening = 1 / 298.257223563
    static let referenceRadius = 6371.2

    /// The years the current coefficients (WMM2025) are issued for.
    public static var validYears: Range<Double> { WMM2025.validYears }

    /// The field at `location` at `decimalYear` (e.g. 2026.5). Outside `validYears` the secular
    /// variation is extrapolated, as the model's own software does.
    public static func field(at location: GeodeticLocation, decimalYear: Double) -> GeomagneticField {
        let degree = Double.pi / 180
        let latitude = location.latitude * degree
        let longitude = location.longitude * degree

        // Geodetic → geocentric spherical (WMM report, equations 7–8).
        let e2 = flattening * (2 - flattening)
        let sinLatitude = sin(latitude), cosLatitude = cos(latitude)
        let primeVerticalRadius = semiMajorAxis / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
        let p = (primeVerticalRadius + location.heightKilometers) * cosLatitude
        let z = (primeVerticalRadius * (1 - e2) + location.heightKilometers) * sinLatitude
        let r = (p * p + z * z).squareRoot()
        let geocentricLatitude = asin(z / r)

        // Colatitude θ; at a geographic pole the east component has 0/0, so stay a hair away.
        let cosTheta = sin(geocentricLatitude)
        let sinTheta = max(cos(geocentricLatitude), 1e-10)

        let n = WMM2025.maximumDegree
        let legendre = SchmidtLegendre(maximumDegree: n, cosTheta: cosTheta, sinTheta: sinTheta)
        let t = decimalYear - WMM2025.epoch

        var cosMLambda = [Double](repeating: 0, count: n + 1)
        var sinMLambda = [Double](repeating: 0, count: n + 1)
        for m in 0...n {
            cosMLambda[m] = cos(Double(m) * longitude)
            sinMLambda[m] = sin(Double(m) * longitude)
        }

        var north = 0.0, east = 0.0, down = 0.0  // geocentric X', Y', Z'
        for c in WMM2025.coefficients {
            let g = c.g + c.gDot * t, h = c.h + c.hDot * t
            let ratio = pow(referenceRadius / r, Double(c.n + 2))
            let cosine = g * cosMLambda[c.m] + h * sinMLambda[c.m]
            let sine = g * sinMLambda[c.m] - h * cosMLambda[c.m]
            // X' = −Σ (a/r)^(n+2) (g cos mλ + h sin mλ) dP/dφ' (WMM report, equation 10).
            north -= ratio * cosine * legendre.derivative(c.n, c.m)
            east += ratio * Double(c.m) * sine * legendre.value(c.n, c.m) / sinTheta
            down -= ratio * Double(c.n + 1) * cosine * legendre.value(c.n, c.m)
        }

        // Geocentric → geodetic: turn by the difference of the two latitudes (equation 17).
        let psi = geocentricLatitude - latitude
        return GeomagneticField(
            north: north * cos(psi) - down * sin(psi),
            east: east,
            down: north * sin(psi) + down * cos(psi))
    }

    /// The magnetic declination in degrees (east positive) at a place and time.
    public static func declination(at location: GeodeticLocation, decimalYear: Double) -> Double {
        field(at: location, decimalYear: decimalYear).declination
    }
}

/// Schmidt semi-normalised associated Legendre functions P_n^m(cos θ) and their θ-derivatives,
/// by the usual recursions (diagonal, then upward in n).
struct SchmidtLegendre {
    private var p: [Double]
    private var dp: [Double]
    private let size: Int

    init(maximumDegree n: Int, cosTheta c: Double, sinTheta s: Double) {
        size = n + 1
        p = [Double](repeating: 0, count: size * size)
        dp = [Double](repeating: 0, count: size * size)
        p[0] = 1
        for degree in 1...n {
            for order in 0...degree {
                let i = degree * size + order
                if degree == order {
                    let previous = (degree - 1) * size + (order - 1)
                    let k = degree == 1 ? 1 : (Double(2 * degree - 1) / Double(2 * degree)).squareRoot()
                    p[i] = k * s * p[previous]
                    dp[i] = k * (s * dp[previous] + c * p[previous])
                } else {
                    let one = (degree - 1) * size + order
                    let two = (degree - 2) * size + order
                    let a = Double(2 * degree - 1)
                    let b = degree >= 2 ? Double((degree - 1 + order) * (degree - 1 - order)).squareRoot() : 0
                    let d = Double((degree + order) * (degree - order)).squareRoot()
                    let pTwo = degree >= 2 && order <= degree - 2 ? p[two] : 0
                    let dpTwo = degree >= 2 && order <= degree - 2 ? dp[two] : 0
                    p[i] = (a * c * p[one] - b * pTwo) / d
                    dp[i] = (a * (c * dp[one] - s * p[one]) - b * dpTwo) / d
                }
            }
        }
    }

    func value(_ n: Int, _ m: Int) -> Double { p[n * size + m] }
    /// dP/dθ taken with the sign that makes it dP/dφ' (φ' = π/2 − θ): −dP/dθ.
    func derivative(_ n: Int, _ m: Int) -> Double { -dp[n * size + m] }
}
