import ArgumentParser
import IMUGeomagnetism
import IMUDevices
import IMUEngine
import IMUFormats

/// `--location latitude,longitude[,height km]`, as `imu calibrate mag` (the expected field
/// strength) and the true-north frames (the declination) take it.
enum LocationOption {
    static func parse(_ text: String) throws -> GeodeticLocation {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        if parts.count >= 2, let latitude = parts[0], abs(latitude) > 90 {
            throw ValidationError("--location: latitude \(text.split(separator: ",")[0]) is beyond ±90° (north positive, south negative); expected latitude,longitude like 52.52,13.40")
        }
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0 != nil }),
              let latitude = parts[0], let longitude = parts[1], abs(latitude) <= 90, abs(longitude) <= 360
        else {
            throw ValidationError("--location must be latitude,longitude[,height km] in degrees, like 52.52,13.40, not \(text)")
        }
        return GeodeticLocation(latitude: latitude, longitude: longitude, heightKilometers: parts.count == 3 ? parts[2]! : 0)
    }

    /// The field strength the World Magnetic Model gives at `--location` today, in µT; nil
    /// without a location.
    static func expectedFieldMicrotesla(_ text: String?) throws -> Double? {
        guard let text else { return nil }
        return WorldMagneticModel.field(at: try parse(text), decimalYear: DecimalYear.now).totalIntensity / 1000
    }
}
