import IMUBus
import IMUDrivers
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu read` and `imu record`: the sample stream printed in a sample format.
struct SampleReader {
    let session: IMUDevice
    let rate: Double
    let count: Int?
    let format: SampleFormat
    /// Stop after this many seconds (on the session's clock).
    var duration: Double? = nil
    var output = LineOutput()
    /// Called after each batch of samples with the number written and the seconds elapsed.
    var progress: ((_ samples: Int, _ seconds: Double) -> Void)? = nil
    /// The metadata's `# calibration:` line: the samples are printed raw.
    var calibrationNote = "none"

    func run() throws {
        // The raw samples: no calibration (the `# calibration:` line says what the caller applies).
        let engine = try MotionEngine.forCommand(device: session, rateHz: rate, duration: duration, calibrated: false)
        let (configuration, rateHz) = try engine.configureForCommand()
        let formatter = SampleFormatter(format)
        var source = SampleSource(
            chip: session.driver.model.rawValue, board: session.board.name, bus: session.bus.name,
            address: hex(session.placement.address), rateHz: rateHz, configuration: configuration)
        source.calibration = calibrationNote
        var output = self.output
        let headerLines = formatter.header(for: source)
        for line in headerLines { output.write(line) }

        var printed = 0
        let start = session.clock.now
        let dropped: Int
        do {
            engine.observe([.samples]) { sample in
                guard case .sample(let sample) = sample else { return }
                output.write(formatter.line(for: sample))
                printed += 1
                if let count, printed >= count { engine.requestStop() }
            }
            dropped = try engine.runForCommand {
                output.flushIfDue()
                progress?(printed, session.clock.now - start)
            }
        } catch {
            output.flush()  // whatever stops the stream, the lines so far reach the output
            throw error
        }
        // A write that failed ends the run with an error saying how much of the output is good.
        try output.finish { lines in
            let kept = max(0, lines - headerLines.count)
            return "it ends at a complete line after \(kept) of the \(printed) samples read"
        }
        MotionEngine.reportLost(dropped)
    }
}
