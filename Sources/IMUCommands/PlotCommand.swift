import ArgumentParser
import Foundation
import IMUCalibration
import IMUDrivers
import IMULog
import IMUMotion
import IMUPlot
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu plot`: a log as time-series graphs in an SVG a person opens in a browser.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a recorded log as SVG graphs: the raw sensors, or device motion after fusion.", usage: "imu plot <log> --output <file.svg> [--what <what>] [<options>]",
        discussion: """
            --what raw draws the accelerometer, gyroscope and magnetometer as recorded; --what motion \
            runs the log through the same pipeline as imu replay (stored calibration, fusion) and \
            draws attitude, rotation rate, gravity and user acceleration.

            Examples:
              imu plot walk.csv --output walk.svg
              imu plot walk.csv --output walk-motion.svg --what motion \\
                  --frame xArbitraryZVertical
            """)

    @Argument(help: "A log in the replay CSV format (what imu record and imu read --format csv write).")
    var log: String

    @Option(name: .shortAndLong, help: "The SVG file to write.")
    var output: String

    @Option(help: "What to draw: raw (the sensors' readings) or motion (device motion after fusion).")
    var what: PlotContent = .raw

    @OptionGroup var frameOptions: FrameOptions

    enum PlotContent: String, ExpressibleByArgument, CaseIterable {
        case raw, motion
    }

    func run() throws {
        let recording = try LogInput.read(log)
        if recording.report.skippedTotal > 0 { printToStandardError("imu: \(recording.report)") }
        guard !recording.samples.isEmpty else { throw CommandError("\(log) holds no samples to plot") }
        let title = "\((log as NSString).lastPathComponent): \(recording.samples.count) samples"
        let chart: TimeSeriesChart
        switch what {
        case .raw:
            chart = Self.rawChart(recording.samples, title: title)
        case .motion:
            var fusion = try LogFusion(recording, path: log, options: frameOptions)
            let motions = recording.samples.compactMap { fusion.update($0) }
            guard !motions.isEmpty else { throw CommandError("\(log) is too short for the fusion estimate to become valid") }
            chart = Self.motionChart(motions, start: recording.samples[0].timestamp, title: title + ", " + fusion.frame.rawValue)
        }
        // Atomically (a full disk leaves the old chart, or none, never half of one), and with
        // the system's reason when it fails.
        try CommandError.wrapping { try AtomicFile.write(chart.svg(), to: output) }
        let seconds = recording.samples.last!.timestamp - recording.samples[0].timestamp
        print("wrote \(output): \(chart.panels.count) panels, \(recording.samples.count) samples over \(number(seconds, 1)) s")
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

    /// Attitude, rotation rate, gravity and user acceleration panels, on the log's time axis
    /// (`start` is its first sample, so the raw and motion plots of one log line up).
    static func motionChart(_ motions: [DeviceMotion], start: Double, title: String) -> TimeSeriesChart {
        let times = motions.map { $0.timestamp - start }
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        func panel(_ title: String, _ unit: String, _ names: [String], _ values: (DeviceMotion) -> [Double]) -> ChartPanel {
            ChartPanel(title: title, unit: unit, componentNames: names, times: times, values: motions.map(values))
        }
        var attitude = panel("Attitude", "°", ["roll", "pitch", "yaw"]) {
            [degrees($0.attitude.roll), degrees($0.attitude.pitch), degrees($0.attitude.yaw)]
        }
        // An angle wrapping from +180° to −180° is one step, not a swing across the panel: the
        // line breaks there (a NaN is a gap).
        for i in attitude.values.indices.dropFirst().reversed() {
            for axis in 0..<3 where abs(attitude.values[i][axis] - attitude.values[i - 1][axis]) > 180 {
                attitude.values[i][axis] = .nan
            }
        }
        return TimeSeriesChart(title: title, panels: [
            attitude,
            panel("Rotation rate", "rad/s", ["x", "y", "z"]) { [$0.rotationRate.x, $0.rotationRate.y, $0.rotationRate.z] },
            panel("Gravity", "g", ["x", "y", "z"]) { [$0.gravity.x, $0.gravity.y, $0.gravity.z] },
            panel("User acceleration", "g", ["x", "y", "z"]) { [$0.userAcceleration.x, $0.userAcceleration.y, $0.userAcceleration.z] },
        ])
    }
}
