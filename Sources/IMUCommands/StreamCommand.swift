import ArgumentParser
import Foundation
import IMUShare
import IMUDrivers
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats
import IMUKit

/// `imu stream`: device motion, live.
struct StreamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Show device motion live: attitude, gravity, user acceleration, rotation rate, heading.", usage: "imu stream [--sim [<scenario>]] [--board <board>] [<options>]",
        discussion: """
            On a terminal, a view that updates in place with graphs of the last seconds. Piped, CSV \
            (the columns of imu replay) or JSON Lines.

            Examples:
              imu stream --sim figure-eight
              imu stream --board sense-hat --format csv > motion.csv
              imu stream --board sense-hat --frame xTrueNorthZVertical --location 52.5,13.4
            """)

    @OptionGroup var source: IMUSourceOptions

    @OptionGroup var frameOptions: FrameOptions

    @OptionGroup var daemon: DaemonSourceOptions

    @Option(parsing: .unconditional, help: "Samples per second.")
    var rate: Double = 100

    @Option(help: "Output: table (live view on a terminal), csv or jsonl. Default: table on a terminal, csv otherwise.")
    var format: SampleFormat?

    @Option(parsing: .unconditional, help: "Stop after this many rows.")
    var count: Int?

    @Option(parsing: .unconditional, help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        try SampleRateOption.validate(rate, lowest: 10)
        if let count, count < 1 { throw ValidationError("--count must be at least 1, not \(count)") }
    }

    func run() throws {
        StopSignal.install()
        if let path = daemon.daemonSocket(hardwareChosen: source.sim || source.board != nil || source.bus != nil) {
            try streamThroughDaemon(path)
            return
        }
        let session = try source.open()
        let (frame, conversion) = try frameOptions.resolve(
            hasMagnetometer: session.driver.capabilities.magnetometer, source: "the \(session.driver.model.rawValue)")
        let engine = try MotionEngine.forCommand(device: session, rateHz: rate, duration: duration, frame: conversion)
        try engine.configureForCommand()
        let notice = engine.settings.calibration.uncalibratedNotice(
            hasMagnetometer: session.driver.capabilities.magnetometer, commandOptions: source.calibrateCommandOptions)
        var display = MotionDisplay(
            format: format, count: count, calibrationNotice: notice, frame: frame,
            source: "\(session.driver.model.rawValue) on \(session.bus.name)")
        defer { display.end() }
        engine.observe([.motion]) { delivered in
            guard case .motion(let motion) = delivered else { return }
            if !display.show(motion, dropped: engine.health.lostSamples) { engine.requestStop() }
        }
        let dropped = try engine.runForCommand { display.afterBatch() }
        try display.finish()
        MotionEngine.reportLost(dropped)
    }

    /// Through the daemon that owns the IMU. In the frame the daemon fuses in (the default), its
    /// own estimate, so every client shows the same attitude; in another frame, a motion manager
    /// on its samples (the library's way to read a shared IMU) fuses them here with the stored
    /// calibration. Either way every format and the live view work as with `--direct`.
    func streamThroughDaemon(_ path: String) throws {
        // The hello only: its connection closes here (the stream takes one of its own, and each
        // connection counts against the daemon's max-clients).
        let served = try DaemonSamples(path: path).served
        let daemonFrame = served.referenceFrame.flatMap(ReferenceFrame.init(rawValue:))
        let (frame, _) = try frameOptions.resolve(
            hasMagnetometer: served.magnetometer, source: "the \(served.identity.chip) the daemon at \(path) serves")
        let calibration = try SensorCalibration.forCommand(served.identity)
        let notice = calibration.uncalibratedNotice(hasMagnetometer: served.magnetometer)
        let source = "\(served.identity.chip) on \(served.identity.bus), through the daemon at \(path)"
        // True north needs this command's declination, which the daemon does not know.
        if frame == daemonFrame, frame != .xTrueNorthZVertical {
            try relayDaemonMotion(from: path, frame: frame, notice: notice, source: source)
        } else {
            try fuseDaemonSamples(from: path, frame: frame, notice: notice, source: source)
        }
    }

    /// The daemon's motion lines at --rate (a divisor of its rate): JSON Lines as they come, CSV
    /// with the same columns, or read back for the table and the live view.
    func relayDaemonMotion(from path: String, frame: ReferenceFrame, notice: String?, source: String) throws {
        let format = self.format ?? (isatty(STDOUT_FILENO) != 0 ? .table : .csv)
        var display = format == .table ? MotionDisplay(format: format, count: nil, calibrationNotice: notice, frame: frame, source: source) : nil
        var output = LineOutput()
        defer {
            display?.end()
            output.flush()
        }
        if format == .csv { output.write(MotionFormatter.csvColumns.joined(separator: ",")) }
        var lost = 0
        try DaemonRelay.run(
            path: path, subscribe: SubscribeOptions(stream: .motion, rate: .rateHz(rate)), count: count, duration: duration,
            flush: {
                display?.afterBatch()
                output.flushIfDue()
            },
            lost: { lost = $0 }
        ) { line in
            switch format {
            case .jsonl:
                output.write(line)
            case .csv:
                if let row = csvRow(jsonLine: line, columns: MotionFormatter.csvColumns) { output.write(row) }
            case .table:
                if let read = MotionLine(line, frame: frame) { _ = display?.show(read.motion, compass: read.compassAccuracy, dropped: lost) }
            }
        }
        try display?.finish()
        try output.finish()
    }

    /// A motion manager on the daemon's samples, fused here in `frame`.
    func fuseDaemonSamples(from path: String, frame: ReferenceFrame, notice: String?, source: String) throws {
        let manager: MotionManager
        do {
            manager = try MotionManager(daemonSocket: path)
        } catch {
            throw CommandError("\(error)")
        }
        manager.declinationDegrees = try frameOptions.declinationDegrees()
        manager.deviceMotionUpdateInterval = 1 / rate
        var display = MotionDisplay(format: format, count: count, calibrationNotice: notice, frame: frame, source: source)
        defer { display.end() }

        // The handler hands values over; this thread formats and draws them (and reads the keys).
        let inbox = DaemonMotionInbox()
        manager.startDeviceMotionUpdates(using: frame, to: inbox.queue) { motion, error in inbox.take(motion, error as? MotionManagerError) }
        defer {
            manager.stopDeviceMotionUpdates()
            manager.waitUntilAcquisitionEnds()
        }
        var firstTime: Double?
        reading: while !StopSignal.isRequested {
            let (motions, problems, ended) = inbox.wait(seconds: 0.05)
            for problem in problems { printToStandardError("imu: \(problem)") }
            for motion in motions {
                if let duration {
                    if let firstTime, motion.timestamp - firstTime >= duration { break reading }
                    if firstTime == nil { firstTime = motion.timestamp }
                }
                if !display.show(motion, dropped: inbox.lostSamples) { break reading }
            }
            display.afterBatch()
            if ended { break }
        }
        try display.finish()
    }
}

/// Device motion from a manager's handler, waiting for the command's thread.
final class DaemonMotionInbox: @unchecked Sendable {
    let queue = DispatchQueue(label: "imu stream")
    private let lock = NSCondition()
    private var motions: [DeviceMotion] = []
    private var problems: [String] = []
    private var ended = false
    /// Samples the daemon dropped for this reader, as the manager told them.
    private(set) var lostSamples = 0

    func take(_ motion: DeviceMotion?, _ error: MotionManagerError?) {
        lock.withLock {
            if let motion { motions.append(motion) }
            if let error {
                problems.append(error.description)
                if case .samplesLost(let count, _) = error { lostSamples += count } else { ended = true }
            }
            lock.signal()
        }
    }

    /// What came within `seconds` (at once when something is waiting), and whether updates ended.
    func wait(seconds: Double) -> (motions: [DeviceMotion], problems: [String], ended: Bool) {
        lock.withLock {
            if motions.isEmpty, problems.isEmpty, !ended { _ = lock.wait(until: Date().addingTimeInterval(seconds)) }
            defer {
                motions.removeAll(keepingCapacity: true)
                problems.removeAll()
            }
            return (motions, problems, ended)
        }
    }
}

/// What `imu stream` does with each device motion: the live view on a terminal (redrawn in place
/// on the alternate screen, q or Ctrl-C to stop), else lines in the chosen format.
struct MotionDisplay {
    private var output = LineOutput()
    private let formatter: MotionFormatter
    private let screen: TerminalScreen?
    private var view: LiveMotionView
    private let count: Int?
    private var rows = 0

    init(format chosen: SampleFormat?, count: Int?, calibrationNotice notice: String?, frame: ReferenceFrame, source: String) {
        let format = chosen ?? (isatty(STDOUT_FILENO) != 0 ? .table : .csv)
        let live = format == .table && isatty(STDOUT_FILENO) != 0
        formatter = MotionFormatter(format)
        self.count = count
        view = LiveMotionView(calibrationNotice: notice)
        // The live view takes the alternate screen (the shell's screen comes back untouched);
        // Ctrl-C and q arrive as keys there.
        screen = live ? TerminalScreen() : nil
        if !live {
            // Said once, at warning level, on standard error (standard output carries the data).
            if let notice { printToStandardError("imu stream: warning: \(notice)") }
            for line in formatter.header(frame: frame, source: source) { output.write(line) }
        }
    }

    /// Shows one device motion (`compass`: its accuracy when the motion carries no field); false
    /// once `count` rows have been shown.
    mutating func show(_ motion: DeviceMotion, compass: MagneticFieldCalibrationAccuracy? = nil, dropped: Int) -> Bool {
        rows += 1
        if let screen {
            view.add(motion)
            let size = screen.size ?? ScreenFit.standardSize
            if let lines = view.frame(
                for: motion, compass: compass, dropped: dropped, wallClock: ProcessInfo.processInfo.systemUptime, columns: size.columns, rows: size.rows) {
                screen.draw(lines)
            }
        } else {
            output.write(formatter.line(for: motion))
        }
        if let count, rows >= count { return false }
        return true
    }

    /// Between batches: the keys (q stops), and the lines written out when due.
    mutating func afterBatch() {
        if let screen, screen.keys().contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3].contains($0) }) {
            StopSignal.request()
        }
        output.flushIfDue()
    }

    /// The shell's screen back, every line written (a write failure is an error).
    mutating func finish() throws {
        screen?.restore()
        try output.finish()
    }

    /// On any exit: the screen back and what is buffered flushed.
    mutating func end() {
        screen?.restore()
        output.flush()
    }
}
