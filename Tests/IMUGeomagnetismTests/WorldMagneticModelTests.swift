import Testing
@testable import IMUGeomagnetism

/// NOAA's published WMM2025 test values (WMM2025testvalues.pdf): decimal year, height above the
/// WGS-84 ellipsoid (km), latitude, longitude (degrees), X, Y, Z (nT), declination (degrees).
/// They are printed to 0.1 nT and 0.01°, so a right answer is within half of that.
@Suite struct WorldMagneticModelTests {
    struct TestValue: Sendable, CustomStringConvertible {
        let year, height, latitude, longitude, north, east, down, declination: Double
        var description: String { "\(year) \(height) km \(latitude)°, \(longitude)°" }
    }

    static let noaa: [TestValue] = [
        TestValue(year: 2025.0, height: 0, latitude: 80, longitude: 0, north: 6521.6, east: 145.9, down: 54791.5, declination: 1.28),
        TestValue(year: 2025.0, height: 0, latitude: 0, longitude: 120, north: 39677.8, east: -109.6, down: -10580.2, declination: -0.16),
        TestValue(year: 2025.0, height: 0, latitude: -80, longitude: 240, north: 6117.5, east: 15751.9, down: -52022.5, declination: 68.78),
        TestValue(year: 2025.0, height: 100, latitude: 80, longitude: 0, north: 6216.0, east: 92.4, down: 52598.8, declination: 0.85),
        TestValue(year: 2025.0, height: 100, latitude: 0, longitude: 120, north: 37688.6, east: -96.2, down: -10152.1, declination: -0.15),
        TestValue(year: 2025.0, height: 100, latitude: -80, longitude: 240, north: 5907.6, east: 14780.3, down: -49540.7, declination: 68.21),
        TestValue(year: 2027.5, height: 0, latitude: 80, longitude: 0, north: 6500.8, east: 294.5, down: 54869.4, declination: 2.59),
        TestValue(year: 2027.5, height: 0, latitude: 0, longitude: 120, north: 39701.6, east: -167.4, down: -10381.8, declination: -0.24),
        TestValue(year: 2027.5, height: 0, latitude: -80, longitude: 240, north: 6200.7, east: 15730.3, down: -51783.7, declination: 68.49),
        TestValue(year: 2027.5, height: 100, latitude: 80, longitude: 0, north: 6196.7, east: 233.8, down: 52670.5, declination: 2.16),
        TestValue(year: 2027.5, height: 100, latitude: 0, longitude: 120, north: 37711.5, east: -148.7, down: -9969.8, declination: -0.23),
        TestValue(year: 2027.5, height: 100, latitude: -80, longitude: 240, north: 5984.0, east: 14760.1, down: -49317.7, declination: 67.93),
    ]

    @Test(arguments: noaa)
    func matchesNOAAsTestValues(_ value: TestValue) {
        let place = GeodeticLocation(latitude: value.latitude, longitude: value.longitude, heightKilometers: value.height)
        let field = WorldMagneticModel.field(at: place, decimalYear: value.year)
        #expect(abs(field.north - value.north) <= 0.06, "X \(field.north)")
        #expect(abs(field.east - value.east) <= 0.06, "Y \(field.east)")
        #expect(abs(field.down - value.down) <= 0.06, "Z \(field.down)")
        #expect(abs(field.declination - value.declination) <= 0.006, "D \(field.declination)")
    }

    @Test func berlinPointsACompassAFewDegreesEast() {
        let berlin = GeodeticLocation(latitude: 52.52, longitude: 13.40, heightKilometers: 0.05)
        let field = WorldMagneticModel.field(at: berlin, decimalYear: 2026.9)
        #expect(field.declination > 3 && field.declination < 7)
        #expect(field.inclination > 66 && field.inclination < 70)
        #expect(field.totalIntensity > 48_000 && field.totalIntensity < 51_000)
        let enu = field.eastNorthUpMicrotesla
        #expect(enu.up < 0 && enu.north > 0)
    }
}
