import ArgumentParser
import IMUGeomagnetism
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats

extension ReferenceFrame: ExpressibleByArgument {}

/// `--frame`, `--declination` and `--location`: the reference frame device motion is given in,
/// and the magnetic declination that `xTrueNorthZVertical` needs.
struct FrameOptions: ParsableArguments {
    @Option(help: "Reference frame (default: xMagneticNorthZVertical with a magnetometer, else xArbitraryZVertical).")
    var frame: ReferenceFrame?

    @Option(parsing: .unconditional, help: "Magnetic declination in degrees, east positive (for xTrueNorthZVertical).")
    var declination: Double?

    @Option(parsing: .unconditional, help: "latitude,longitude[,height km] for the World Magnetic Model's declination (for xTrueNorthZVertical).")
    var location: String?

    /// A bad --location is a usage error of the command it was given to (checked here, before
    /// the run, so the usage shown is `imu stream`'s, not `imu <subcommand>`'s).
    func validate() throws {
        if let location { _ = try LocationOption.parse(location) }
    }

    /// The frame asked for (or the default for the data) and its conversion; `source` names
    /// what lacks a magnetometer in the error.
    func resolve(hasMagnetometer: Bool, source: String) throws -> (frame: ReferenceFrame, conversion: FrameConversion) {
        let frame = self.frame ?? (hasMagnetometer ? .xMagneticNorthZVertical : .xArbitraryZVertical)
        if frame.needsMagnetometer && !hasMagnetometer {
            throw CommandError("\(frame.rawValue) needs a magnetometer, and \(source) has none; use xArbitraryZVertical")
        }
        guard let conversion = FrameConversion(frame: frame, declinationDegrees: try declinationDegrees()) else {
            throw CommandError("xTrueNorthZVertical needs the magnetic declination: give --declination DEGREES or --location LAT,LON")
        }
        return (frame, conversion)
    }

    /// From --declination, or from --location through WMM2025 at today's date.
    func declinationDegrees() throws -> Double? {
        if let declination { return declination }
        guard let location else { return nil }
        let place = try LocationOption.parse(location)
        return WorldMagneticModel.declination(at: place, decimalYear: DecimalYear.now)
    }
}
