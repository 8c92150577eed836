import ArgumentParser
import Foundation
import IMUDrivers
import IMUGeomagnetism
import IMULog
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu replay`: the fusion pipeline over a recorded log, as fast as it goes.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run sensor fusion over a recorded log and print device motion for every sample.", usage: "imu replay <log> [--format <format>] [--frame <frame>] [<options>]",
        discussion: """
            Rows start once the estimate is valid; t is the log's own time. Frames use Core Motion's \
            names: xArbitraryZVertical (no magnetometer), xArbitraryCorrectedZVertical, \
            xMagneticNorthZVertical, xTrueNorthZVertical (needs --declination or --location).

            Examples:
              imu replay walk.csv > walk-motion.csv
              imu replay walk.csv --format table --frame xTrueNorthZVertical \\
                  --location 52.52,13.40
            """)

    @Argument(help: "A log in the replay CSV format (imu record, imu read --format csv).")
    var log: String

    @OptionGroup var frameOptions: FrameOptions

    @Option(help: "Output format: csv, jsonl or table.")
    var format: SampleFormat = .csv

    func run() throws {
        StopSignal.install()
        let recording = try LogInput.read(log)
        if recording.report.skippedTotal > 0 { printToStandardError("imu: \(recording.report)") }
        var fusion = try LogFusion(recording, path: log, options: frameOptions)
        let formatter = MotionFormatter(format)
        var output = LineOutput()
        for line in formatter.header(frame: fusion.frame, source: fusion.source) { output.write(line) }
        for sample in recording.samples {
            if StopSignal.isRequested { break }
            if let motion = fusion.update(sample) { output.write(formatter.line(for: motion)) }
        }
        try output.finish()
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
