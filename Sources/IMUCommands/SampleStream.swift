import IMUBoards
import IMUBus
import IMUDrivers

/// The acquisition loop every live command shares: configures the chip, paces reads at the
/// chosen rate (or drains the FIFO at high rates), and hands each sample, in device axes, to a
/// handler until the handler says stop, Ctrl-C comes, or the duration has passed. The chip is
/// put to sleep at the end.
struct SampleStream {
    /// At and above this rate the chip's FIFO collects samples and the loop drains it in batches.
    static let fifoRateHz = 200.0

    let session: HardwareSession
    let rate: Double
    /// Stop after this many seconds (on the session's clock).
    var duration: Double? = nil

    /// Configures the chip; returns its effective configuration and the output rate.
    func configure() throws -> (configuration: IMUConfiguration, rateHz: Double) {
        do {
            try session.driver.configure(IMUSettings(sampleRateHz: rate))
        } catch {
            throw CommandError("\(error)")
        }
        let driver = session.driver
        return (driver.configuration, usesFIFO ? driver.configuration.sampleRate.hertz : rate)
    }

    var usesFIFO: Bool { rate >= Self.fifoRateHz && session.driver.capabilities.fifoCapacity > 0 }

    /// Runs the loop (after `configure()`). `handle` returns true to stop; `afterBatch` runs after
    /// each read or drain (to flush output, show progress). Returns the samples lost to FIFO
    /// overflows.
    @discardableResult
    func run(afterBatch: () -> Void = {}, handle: (MotionSample) -> Bool) throws -> Int {
        let driver = session.driver
        let clock = session.clock
        let start = clock.now
        var dropped = 0
        defer { try? driver.sleep() }
        func deliver(_ sample: MotionSample) -> Bool {
            if handle(session.placement.deviceSample(sample)) { return true }
            if let duration, sample.timestamp - start >= duration { return true }
            return false
        }
        do {
            if usesFIFO {
                try driver.startFIFO()
                var batch: [MotionSample] = []
                batch.reserveCapacity(driver.capabilities.fifoCapacity)
                // Drain well before the FIFO can fill: at most half of it per wait.
                let wait = min(0.05, Double(driver.capabilities.fifoCapacity) / 2 / driver.configuration.sampleRate.hertz)
                while !StopSignal.isRequested {
                    clock.sleep(seconds: wait)
                    batch.removeAll(keepingCapacity: true)
                    dropped += try driver.drainFIFO(into: &batch).dropped
                    for sample in batch where deliver(sample) { return dropped }
                    afterBatch()
                }
            } else {
                let period = 1 / rate
                var next = clock.now
                while !StopSignal.isRequested {
                    if deliver(try driver.readSample()) { return dropped }
                    afterBatch()
                    next += period
                    let wait = next - clock.now
                    if wait > 0 { clock.sleep(seconds: wait) } else { next = clock.now }
                }
            }
        } catch {
            throw CommandError("\(error)")
        }
        return dropped
    }
}
