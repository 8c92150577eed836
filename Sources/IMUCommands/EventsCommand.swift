import ArgumentParser
import Foundation
import IMUDrivers
import IMUEvents
import IMULog
import IMUMotion

/// `imu events`: shakes, orientation changes, slaps (and heading changes) as they happen, or from
/// a recording.
struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print shake, orientation, slap and heading events, live or from a recorded log.",
        discussion: """
            JSON Lines (--format jsonl), one event a line:
              {"t":…,"type":"shake","phase":"began|ended|cancelled"}
              {"t":…,"type":"orientation","orientation":"faceUp|faceDown|portrait|…"}
              {"t":…,"type":"slap","direction":"left|right"}
              {"t":…,"type":"heading","heading_deg":…}
            t is the input's time (a replay keeps the log's t).

            Examples:
              imu events --sim shake
              imu events --replay walk.csv --format jsonl
            """)

    @OptionGroup var source: IMUSourceOptions

    @Option(help: "Read a recorded log instead of a live IMU.")
    var replay: String?

    @Option(help: "Samples per second for a live IMU.")
    var rate: Double = 100

    @Option(help: "Output format: table or jsonl.")
    var format: SampleFormat = .table

    @Option(help: "Report heading changes of at least this many degrees (default: no heading events).")
    var headingFilter: Double?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        if replay != nil && source.sim { throw ValidationError("choose --sim or --replay, not both") }
        if format == .csv { throw ValidationError("events come as table or jsonl") }
        guard rate.isFinite, rate >= 10, rate <= 1000 else {
            throw ValidationError("--rate must be between 10 and 1000 samples per second for events, not \(rate)")
        }
        if let headingFilter, !(headingFilter >= 0 && headingFilter < 360) {
            throw ValidationError("--heading-filter must be 0 to 360 degrees, not \(headingFilter)")
        }
    }

    func run() throws {
        StopSignal.install()
        var detector = EventDetector(headingFilterDegrees: headingFilter)
        var output = LineOutput()
        defer { output.flush() }
        if format == .table { output.write("t s".leftPadded(10) + "  event") }
        func process(_ motion: DeviceMotion) {
            for event in detector.update(
                gravity: motion.gravity, userAcceleration: motion.userAcceleration, heading: motion.heading,
                timestamp: motion.timestamp)
            {
                output.write(format == .jsonl ? event.jsonLine : Self.tableLine(event))
            }
        }

        if let replay {
            let recording: ReplayLog
            do { recording = try ReplayLog.read(path: replay, options: .lenient) } catch { throw CommandError("\(error)") }
            if recording.report.skippedTotal > 0 { printToStandardError("imu: \(recording.report)") }
            var pipeline = Self.pipeline(magnetometer: recording.samples.contains { $0.magneticField != nil })
            var calibration = try AppliedCalibration(for: CalibrationSource.replay(recording, path: replay).chipIdentity)
            let start = recording.samples.first?.timestamp ?? 0
            for sample in recording.samples {
                if StopSignal.isRequested || duration.map({ sample.timestamp - start >= $0 }) == true { break }
                if let motion = pipeline.update(calibration.apply(to: sample)) { process(motion) }
            }
            return
        }

        let session = try source.open()
        var calibration = try AppliedCalibration(for: session.chipIdentity)
        let stream = SampleStream(session: session, rate: rate, duration: duration)
        _ = try stream.configure()
        var pipeline = Self.pipeline(magnetometer: session.driver.capabilities.magnetometer)
        try stream.run(afterBatch: { output.flushIfDue() }) { sample in
            if let motion = pipeline.update(calibration.apply(to: sample)) { process(motion) }
            return false
        }
    }

    static func pipeline(magnetometer: Bool) -> DeviceMotionPipeline<FixedFusionFilter> {
        let frame: ReferenceFrame = magnetometer ? .xMagneticNorthZVertical : .xArbitraryZVertical
        return DeviceMotionPipeline(filter: FixedFusionFilter(usesMagnetometer: magnetometer), frame: FrameConversion(frame: frame)!)
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
