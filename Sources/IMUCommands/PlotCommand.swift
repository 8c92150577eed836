import ArgumentParser
import Foundation
import IMUDrivers
import IMULog
import IMUPlot

/// `imu plot`: a log as time-series graphs in an SVG a person opens in a browser.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a recorded log as SVG graphs (accelerometer, gyroscope, magnetometer).",
        discussion: """
            Examples:
              imu plot walk.csv --output walk.svg
            """)

    @Argument(help: "A log in the replay CSV format (what imu record and imu read --format csv write).")
    var log: String

    @Option(name: .shortAndLong, help: "The SVG file to write.")
    var output: String

    @Option(help: "What to draw: raw (the sensors' readings).")
    var what: PlotContent = .raw

    enum PlotContent: String, ExpressibleByArgument, CaseIterable {
        case raw
    }

    func run() throws {
        let recording: ReplayLog
        do {
            recording = try ReplayLog.read(path: log, options: .lenient)
        } catch {
            throw CommandError("\(error)")
        }
        if recording.report.skippedTotal > 0 { printToStandardError("imu: \(recording.report)") }
        guard !recording.samples.isEmpty else { throw CommandError("\(log) holds no samples to plot") }
        let chart = Self.rawChart(recording.samples, title: "\((log as NSString).lastPathComponent): \(recording.samples.count) samples")
        do {
            try chart.svg().write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            throw CommandError("cannot write \(output): \(error.localizedDescription)")
        }
    }

    /// Accelerometer, gyroscope and (when the log has one) magnetometer panels.
    static func rawChart(_ samples: [MotionSample], title: String) -> TimeSeriesChart {
        let times = samples.map(\.timestamp)
        let start = times.first ?? 0
        let relative = times.map { $0 - start }
        var panels = [
            ChartPanel(
                title: "Accelerometer", unit: "g", componentNames: ["x", "y", "z"], times: relative,
                values: samples.map { [$0.acceleration.x, $0.acceleration.y, $0.acceleration.z] }),
            ChartPanel(
                title: "Gyroscope", unit: "rad/s", componentNames: ["x", "y", "z"], times: relative,
                values: samples.map { [$0.rotationRate.x, $0.rotationRate.y, $0.rotationRate.z] }),
        ]
        if samples.contains(where: { $0.magneticField != nil }) {
            panels.append(ChartPanel(
                title: "Magnetometer", unit: "µT", componentNames: ["x", "y", "z"], times: relative,
                values: samples.map { s in s.magneticField.map { [$0.x, $0.y, $0.z] } ?? [.nan, .nan, .nan] }))
        }
        return TimeSeriesChart(title: title, panels: panels)
    }
}
