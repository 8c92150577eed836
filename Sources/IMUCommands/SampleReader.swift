import IMUBoards
import IMUBus
import IMUDrivers

/// The read loop behind `imu read`: configures the chip, paces reads at the chosen rate (or
/// drains the FIFO at high rates), turns samples into device axes and prints them.
struct SampleReader {
    /// At and above this rate the chip's FIFO collects samples and the loop drains it in batches.
    static let fifoRateHz = 200.0

    let session: HardwareSession
    let rate: Double
    let count: Int?
    let format: SampleFormat
    /// Stop after this many seconds (on the session's clock).
    var duration: Double? = nil
    var output = LineOutput()
    /// Called after each batch of samples with the number written and the seconds elapsed.
    var progress: ((_ samples: Int, _ seconds: Double) -> Void)? = nil

    func run() throws {
        let driver = session.driver
        let clock = session.clock
        do {
            try driver.configure(IMUSettings(sampleRateHz: rate))
        } catch {
            throw CommandError("\(error)")
        }
        let formatter = SampleFormatter(format)
        let source = SampleSource(
            chip: driver.model.rawValue, board: session.board.name, bus: session.bus.name,
            rateHz: useFIFO(driver) ? driver.configuration.sampleRate.hertz : rate,
            configuration: driver.configuration)
        var output = self.output
        let start = clock.now
        for line in formatter.header(for: source) { output.write(line) }

        var printed = 0
        var dropped = 0
        defer {
            try? driver.sleep()
            output.flush()
            if dropped > 0 { printToStandardError("imu: \(dropped) samples were lost (FIFO overflow)") }
        }
        func emit(_ sample: MotionSample) -> Bool {
            output.write(formatter.line(for: session.placement.deviceSample(sample)))
            printed += 1
            if let duration, sample.timestamp - start >= duration { return true }
            return count.map { printed >= $0 } ?? false
        }

        do {
            if useFIFO(driver) {
                try driver.startFIFO()
                var batch: [MotionSample] = []
                batch.reserveCapacity(driver.capabilities.fifoCapacity)
                // Drain well before the FIFO can fill: at most half of it per wait.
                let wait = min(0.05, Double(driver.capabilities.fifoCapacity) / 2 / driver.configuration.sampleRate.hertz)
                while !StopSignal.isRequested {
                    clock.sleep(seconds: wait)
                    batch.removeAll(keepingCapacity: true)
                    dropped += try driver.drainFIFO(into: &batch).dropped
                    for sample in batch where emit(sample) { return }
                    output.flushIfDue()
                    progress?(printed, clock.now - start)
                }
            } else {
                let period = 1 / rate
                var next = clock.now
                while !StopSignal.isRequested {
                    if emit(try driver.readSample()) { return }
                    output.flushIfDue()
                    progress?(printed, clock.now - start)
                    next += period
                    let wait = next - clock.now
                    if wait > 0 { clock.sleep(seconds: wait) } else { next = clock.now }
                }
            }
        } catch {
            throw CommandError("\(error)")
        }
    }

    private func useFIFO(_ driver: any IMUDriver) -> Bool {
        rate >= Self.fifoRateHz && driver.capabilities.fifoCapacity > 0
    }
}
