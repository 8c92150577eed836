import ArgumentParser
import Foundation
import IMUDrivers
import IMUGeomagnetism
import IMULog
import IMUMotion

extension ReferenceFrame: ExpressibleByArgument {}

/// `imu replay`: the fusion pipeline over a recorded log, as fast as it goes.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run sensor fusion over a recorded log and print device motion for every sample.",
        discussion: """
            Rows start once the estimate is valid; t is the log's own time. Frames use Core Motion's
            names: xArbitraryZVertical (no magnetometer), xArbitraryCorrectedZVertical,
            xMagneticNorthZVertical, xTrueNorthZVertical (needs --declination or --location).

            Examples:
              imu replay walk.csv > walk-motion.csv
              imu replay walk.csv --frame xTrueNorthZVertical --location 52.52,13.40 --format table
            """)

    @Argument(help: "A log in the replay CSV format (imu record, imu read --format csv).")
    var log: String

    @Option(help: "Reference frame (default: xMagneticNorthZVertical with a magnetometer, else xArbitraryZVertical).")
    var frame: ReferenceFrame?

    @Option(help: "Output format: csv, jsonl or table.")
    var format: SampleFormat = .csv

    @Option(help: "Magnetic declination in degrees, east positive (for xTrueNorthZVertical).")
    var declination: Double?

    @Option(help: "latitude,longitude[,height km] for the World Magnetic Model's declination (for xTrueNorthZVertical).")
    var location: String?

    func run() throws {
        StopSignal.install()
        let recording: ReplayLog
        do {
            recording = try ReplayLog.read(path: log, options: .lenient)
        } catch {
            throw CommandError("\(error)")
        }
        if recording.report.skippedTotal > 0 { printToStandardError("imu: \(recording.report)") }
        let hasMagnetometer = recording.samples.contains { $0.magneticField != nil }
        let frame = self.frame ?? (hasMagnetometer ? .xMagneticNorthZVertical : .xArbitraryZVertical)
        if frame.needsMagnetometer && !hasMagnetometer {
            throw CommandError("\(frame.rawValue) needs a magnetometer, and \(log) has no magnetometer columns; use xArbitraryZVertical")
        }
        guard let conversion = FrameConversion(frame: frame, declinationDegrees: try declinationDegrees()) else {
            throw CommandError("xTrueNorthZVertical needs the magnetic declination: give --declination DEGREES or --location LAT,LON")
        }
        var calibration = try AppliedCalibration(for: CalibrationSource.replay(recording, path: log).chipIdentity)
        let filter = FixedFusionFilter(usesMagnetometer: frame.needsMagnetometer)
        var pipeline = DeviceMotionPipeline(filter: filter, frame: conversion)
        let formatter = MotionFormatter(format)
        var output = LineOutput()
        let source = (log as NSString).lastPathComponent + ", calibration: " + calibration.summary
        for line in formatter.header(frame: frame, source: source) { output.write(line) }
        for sample in recording.samples {
            if StopSignal.isRequested { break }
            let calibrated = calibration.apply(to: sample)
            if let motion = pipeline.update(calibrated) {
                output.write(formatter.line(for: motion.with(field: calibrated.magneticField, accuracy: calibration.magnetometerAccuracy)))
            }
        }
        output.flush()
    }

    /// From --declination, or from --location through WMM2025 at today's date.
    func declinationDegrees() throws -> Double? {
        if let declination { return declination }
        guard let location else { return nil }
        let parts = location.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0 != nil }),
              let latitude = parts[0], let longitude = parts[1], abs(latitude) <= 90, abs(longitude) <= 360
        else {
            throw ValidationError("--location must be latitude,longitude[,height km] in degrees, like 52.52,13.40, not \(location)")
        }
        let place = GeodeticLocation(latitude: latitude, longitude: longitude, heightKilometers: parts.count == 3 ? parts[2]! : 0)
        return WorldMagneticModel.declination(at: place, decimalYear: DecimalYear.now)
    }
}

/// The current date as a decimal year (2026.89…), what the World Magnetic Model takes.
enum DecimalYear {
    static var now: Double { of(Date()) }

    static func of(_ date: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year = calendar.component(.year, from: date)
        let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))!
        return Double(year) + date.timeIntervalSince(start) / end.timeIntervalSince(start)
    }
}
