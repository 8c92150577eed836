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

    /// How often the chip's configuration is read back: a replug without a bus error leaves
    /// it at power-on defaults, and its samples would no longer be fresh.
    static let healthCheckInterval = 0.5
    /// How often a lost chip is tried again.
    static let retryInterval = 0.05

    /// Where trouble is told (the CLI prints it; the daemon logs it).
    var report: (String) -> Void = { printToStandardError("imu: " + $0) }

    /// Runs the loop (after `configure()`). `handle` returns true to stop; `afterBatch` runs after
    /// each read or drain (to flush output, show progress). Returns the samples lost (FIFO
    /// overflows, outages).
    ///
    /// The loop survives the faults of hobby wiring: a failed transfer starts an outage (said
    /// once, in words), the chip is tried again every 50 ms and, when it answers as itself,
    /// reconfigured (range, rate and FIFO as before: a replugged chip is back at its power-on
    /// defaults); the samples the outage cost are counted. Twice a second the configuration is
    /// read back, so a chip reset without a bus error (a brown-out) is caught too.
    @discardableResult
    func run(afterBatch: () -> Void = {}, handle: (MotionSample) -> Bool) throws -> Int {
        let driver = session.driver
        let clock = session.clock
        let start = clock.now
        let settings = IMUSettings(sampleRateHz: rate)
        var dropped = 0
        var outage: (since: Double, message: String)?
        var lastHealthCheck = clock.now
        defer { try? driver.sleep() }

        func deliver(_ sample: MotionSample) -> Bool {
            if handle(session.placement.deviceSample(sample)) { return true }
            if let duration, sample.timestamp - start >= duration { return true }
            return false
        }

        var batch: [MotionSample] = []
        batch.reserveCapacity(max(driver.capabilities.fifoCapacity, 1))
        let drainWait = usesFIFO
            ? min(0.05, Double(driver.capabilities.fifoCapacity) / 2 / driver.configuration.sampleRate.hertz) : 0
        let period = 1 / rate
        var next = clock.now
        do {
            if usesFIFO { try driver.startFIFO() }
        } catch {
            throw CommandError("\(error)")
        }
        while !StopSignal.isRequested {
            if let duration, clock.now - start >= duration { break }
            do throws(IMUDriverError) {
                if let lost = outage {
                    try driver.configure(settings)
                    if usesFIFO { try driver.startFIFO() }
                    let gap = clock.now - lost.since
                    let missed = Int((gap / period).rounded())
                    dropped += missed
                    report("the chip is back after \(number(gap, 2)) s and reconfigured; \(missed) samples were lost")
                    outage = nil
                    next = clock.now
                    lastHealthCheck = clock.now
                }
                if clock.now - lastHealthCheck >= Self.healthCheckInterval {
                    lastHealthCheck = clock.now
                    guard try driver.isConfigured() else {
                        throw .unsupported("the chip lost its configuration (a power cut or replug?)")
                    }
                }
                if usesFIFO {
                    clock.sleep(seconds: drainWait)
                    batch.removeAll(keepingCapacity: true)
                    dropped += try driver.drainFIFO(into: &batch).dropped
                    for sample in batch where deliver(sample) { return dropped }
                } else {
                    if deliver(try driver.readSample()) { return dropped }
                    next += period
                    let wait = next - clock.now
                    if wait > 0 { clock.sleep(seconds: wait) } else { next = clock.now }
                }
                afterBatch()
            } catch {
                let message = "\(error)"
                if outage == nil {
                    outage = (clock.now, message)
                    report("\(message); retrying every \(Int(Self.retryInterval * 1000)) ms")
                } else if outage!.message != message {
                    // Something new (a chip answering with the wrong identity): say it once too.
                    outage!.message = message
                    report("\(message); still retrying")
                }
                afterBatch()
                clock.sleep(seconds: Self.retryInterval)
            }
        }
        return dropped
    }
}
