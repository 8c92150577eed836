import ArgumentParser
import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu record`: raw samples to a log file in the replay CSV format.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record raw samples to a CSV log that imu replay (and any spreadsheet) reads.", usage: "imu record --output <file> [--duration <s>] [--sim [<scenario>]] [...]",
        discussion: """
            The file starts with # metadata lines (chip, board, ranges, rate, calibration), then the \
            header t,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,mag_x,mag_y,mag_z,temp_c. It is synced to disk \
            every second: a crash or power cut loses at most the last second, and the file stays \
            readable (an interrupted last line is skipped by readers).

            Examples:
              imu record --output walk.csv --duration 60 --rate 100
              imu record --sim figure-eight --output fig8.csv --duration 30
            """)

    @Option(name: .shortAndLong, help: "The log file to write (replaced if it exists).")
    var output: String

    @Option(parsing: .unconditional, help: "Stop after this many seconds (default: until Ctrl-C).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Samples per second.")
    var rate: Double = 100

    @OptionGroup var source: IMUSourceOptions

    func validate() throws {
        try SampleRateOption.validate(rate, lowest: 0.1)
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, not \(duration)")
        }
    }

    func run() throws {
        StopSignal.install()
        let session = try source.open()
        let calibration = try SensorCalibration.forCommand(session.chipIdentity)
        let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(output): \(String(cString: strerror(errno)))")
        }
        var closed = false
        defer { if !closed { close(descriptor) } }
        var reader = SampleReader(session: session, rate: rate, count: nil, format: .csv, duration: duration)
        // The samples stay raw; replay applies the stored calibration (named here) again.
        reader.calibrationNote = calibration.file == nil ? "none" : "raw samples; stored \(calibration.summary) calibration applies on replay"

        reader.output = LineOutput(descriptor: descriptor, name: output, latency: 1, durable: true)
        var progress = RecordProgress(output: output, duration: duration)
        writeToStandardError(progress.started)
        reader.progress = { samples, seconds in
            if let text = progress.update(samples: samples, seconds: seconds) { writeToStandardError(text) }
        }
        do {
            try reader.run()
        } catch {
            if progress.terminal { writeToStandardError("\n") }
            throw error
        }
        closed = true
        if close(descriptor) != 0 {
            throw CommandError("cannot write \(output): \(String(cString: strerror(errno))) (closing it)")
        }
        writeToStandardError(progress.finished)
    }
}
