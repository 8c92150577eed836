import ArgumentParser
import Foundation
import IMUShare
import IMUDrivers
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats

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
            try relay(from: path)
            return
        }
        let session = try source.open()
        let (frame, conversion) = try frameOptions.resolve(
            hasMagnetometer: session.driver.capabilities.magnetometer, source: "the \(session.driver.model.rawValue)")
        let engine = try MotionEngine.forCommand(device: session, rateHz: rate, duration: duration, frame: conversion)
        let format = self.format ?? (isatty(STDOUT_FILENO) != 0 ? .table : .csv)
        let live = format == .table && isatty(STDOUT_FILENO) != 0

        try engine.configureForCommand()
        let notice = engine.settings.calibration.uncalibratedNotice(
            hasMagnetometer: session.driver.capabilities.magnetometer, commandOptions: source.calibrateCommandOptions)
        var output = LineOutput()
        defer { output.flush() }
        let formatter = MotionFormatter(format)
        // The live view takes the alternate screen (the shell's screen comes back untouched);
        // Ctrl-C and q arrive as keys there.
        let screen = live ? TerminalScreen() : nil
        defer { screen?.restore() }
        if !live {
            // Said once, at warning level, on standard error (standard output carries the data).
            if let notice { printToStandardError("imu stream: warning: \(notice)") }
            for line in formatter.header(frame: frame, source: "\(session.driver.model.rawValue) on \(session.bus.name)") { output.write(line) }
        }
        var view = LiveMotionView(calibrationNotice: notice)
        var rows = 0
        let afterBatch = {
            if let screen, screen.keys().contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3].contains($0) }) {
                StopSignal.request()
            }
            output.flushIfDue()
        }
        engine.observe([.motion]) { delivered in
            guard case .motion(let motion) = delivered else { return }
            rows += 1
            if let screen {
                view.add(motion)
                let size = screen.size ?? ScreenFit.standardSize
                if let lines = view.frame(
                    for: motion, dropped: engine.health.lostSamples, wallClock: ProcessInfo.processInfo.systemUptime,
                    columns: size.columns, rows: size.rows) {
                    screen.draw(lines)
                }
            } else {
                output.write(formatter.line(for: motion))
            }
            if let count, rows >= count { engine.requestStop() }
        }
        let dropped = try engine.runForCommand(flush: afterBatch)
        screen?.restore()
        try output.finish()
        MotionEngine.reportLost(dropped)
    }

    /// Device motion from the daemon at --rate (a divisor of its rate): its JSON lines as they
    /// are, or the same columns as CSV. The live view needs the motion itself: --direct.
    func relay(from path: String) throws {
        let format = self.format ?? (isatty(STDOUT_FILENO) != 0 ? .table : .csv)
        guard format != .table else {
            throw CommandError("the live view reads the IMU itself; through the daemon at \(path) use --format csv or jsonl (or --direct, with the daemon stopped)")
        }
        var output = LineOutput()
        defer { output.flush() }
        if format == .csv { output.write(MotionFormatter.csvColumns.joined(separator: ",")) }
        try DaemonRelay.run(
            path: path, subscribe: SubscribeOptions(stream: .motion, rate: .rateHz(rate)), count: count, duration: duration,
            flush: { output.flushIfDue() }
        ) { line in
            if format == .jsonl {
                output.write(line)
            } else if let row = csvRow(jsonLine: line, columns: MotionFormatter.csvColumns) {
                output.write(row)
            }
        }
        try output.finish()
    }
}
