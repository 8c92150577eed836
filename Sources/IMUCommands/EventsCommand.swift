import ArgumentParser
import Foundation
import IMUDrivers
import IMUEvents
import IMULog
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats
import IMUShare

/// `imu events`: shakes, orientation changes, slaps (and heading changes) as they happen, or from
/// a recording.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print shake, orientation, slap and heading events, live or from a recorded log.", usage: "imu events [--sim [<scenario>] | --replay <log>] [<options>]",
        discussion: """
            JSON Lines (--format jsonl), one event a line:
              {"t":…,"type":"shake","phase":"began|ended|cancelled"}
              {"t":…,"type":"orientation","orientation":"faceUp|faceDown|portrait|…"}
              {"t":…,"type":"slap","direction":"left|right"}
              {"t":…,"type":"heading","heading_deg":…}
            CSV (--format csv): t,type,detail (detail: the phase, orientation, direction, or the \
            heading in degrees). t is the input's time (a replay keeps the log's t).

            Examples:
              imu events --sim shake
              imu events --sim shake --low-power      # idle between shakes, woken by INT
              imu events --replay walk.csv --format jsonl
            """)

    @OptionGroup var source: IMUSourceOptions

    @OptionGroup var daemon: DaemonSourceOptions

    @Option(help: "Read a recorded log instead of a live IMU.")
    var replay: String?

    @Option(parsing: .unconditional, help: "Samples per second for a live IMU.")
    var rate: Double = 100

    @Option(help: "Output format: table, csv or jsonl.")
    var format: SampleFormat = .table

    @Option(parsing: .unconditional, help: "Report heading changes of at least this many degrees (default: no heading events).")
    var headingFilter: Double?

    @Option(parsing: .unconditional, help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(help: "Sleep between shakes: the chip watches for motion in its low-power mode and wakes the loop through its INT pin (needs the board's interrupt-pin).")
    var lowPower = false

    func validate() throws {
        if replay != nil && source.sim { throw ValidationError("choose --sim or --replay, not both") }
        if lowPower && replay != nil { throw ValidationError("--low-power watches a live IMU; a replay has no chip to sleep") }
        try SampleRateOption.validate(rate, lowest: 10)
        if let headingFilter, !(headingFilter >= 0 && headingFilter < 360) {
            throw ValidationError("--heading-filter must be 0 to 360 degrees, not \(headingFilter)")
        }
    }

    func run() throws {
        StopSignal.install()
        // The log first: a bad one is an error before any output.
        let recording = try replay.map { try LogInput.read($0) }
        var output = LineOutput()
        defer { output.flush() }
        if format == .table { output.write("t s".leftPadded(10) + "  event") }
        if format == .csv { output.write("t,type,detail") }
        func show(_ events: [MotionEvent]) {
            for event in events {
                switch format {
                case .jsonl: output.write(event.jsonLine)
                case .csv: output.write(Self.csvLine(event))
                case .table: output.write(Self.tableLine(event))
                }
            }
        }

        if let replay, let recording {
            if recording.report.skippedTotal > 0 { printToStandardError("imu: \(recording.report)") }
            var pipeline = MotionPipeline(
                calibration: try SensorCalibration.forCommand(CalibrationSource.replay(recording, path: replay).chipIdentity),
                magnetometer: recording.samples.contains { $0.magneticField != nil }, headingFilterDegrees: headingFilter)
            let start = recording.samples.first?.timestamp ?? 0
            for sample in recording.samples {
                if StopSignal.isRequested || duration.map({ sample.timestamp - start >= $0 }) == true { break }
                show(pipeline.update(sample).events)
            }
            try output.finish()
            return
        }

        if !lowPower, headingFilter == nil,
           let path = daemon.daemonSocket(hardwareChosen: source.sim || source.board != nil || source.bus != nil) {
            try DaemonRelay.run(path: path, subscribe: SubscribeOptions(stream: .events), duration: duration, flush: { output.flushIfDue() }) { line in
                if format == .jsonl {
                    output.write(line)
                } else if let event = MotionEvent(jsonLine: line) {
                    show([event])
                }
            }
            try output.finish()
            return
        }
        let device = try source.open()
        let engine = try MotionEngine.forCommand(
            device: device, rateHz: rate, duration: duration, headingFilterDegrees: headingFilter,
            lowPower: lowPower ? try LowPowerAcquisition.forCommand(device) : nil)
        // Heading events need a calibrated compass (and gyro): said once, with the fix.
        if headingFilter != nil,
           let notice = engine.settings.calibration.uncalibratedNotice(
               hasMagnetometer: device.driver.capabilities.magnetometer, commandOptions: source.calibrateCommandOptions) {
            printToStandardError("imu events: warning: \(notice)")
        }
        engine.observe([.events]) { output in
            if case .event(let event) = output { show([event]) }
        }
        MotionEngine.reportLost(try engine.runForCommand { output.flushIfDue() })
        try output.finish()
    }

    /// t,type,detail: the same fields as the JSON line, in columns a spreadsheet reads.
    static func csvLine(_ event: MotionEvent) -> String {
        let detail: String
        switch event {
        case .shake(.began): detail = "shake,began"
        case .shake(.ended): detail = "shake,ended"
        case .shake(.cancelled): detail = "shake,cancelled"
        case .orientation(let orientation, _): detail = "orientation,\(orientation.rawValue)"
        case .slap(let slap): detail = "slap,\(slap.direction.rawValue)"
        case .heading(let degrees, _): detail = "heading,\(number(degrees >= 359.995 ? 0 : degrees, 2))"
        }
        return number(event.timestamp, 6) + "," + detail
    }

    static func tableLine(_ event: MotionEvent) -> String {
        let detail: String
        switch event {
        case .shake(.began): detail = "shake began"
        case .shake(.ended): detail = "shake ended"
        case .shake(.cancelled): detail = "shake cancelled"
        case .orientation(let orientation, _): detail = "orientation \(orientation.rawValue)"
        case .slap(let slap): detail = "slap \(slap.direction.rawValue)"
        case .heading(let degrees, _): detail = "heading \(number(degrees, 1))°"
        }
        return number(event.timestamp, 3).leftPadded(10) + "  " + detail
    }
}
