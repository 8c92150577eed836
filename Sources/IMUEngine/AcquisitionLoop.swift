import Foundation
import IMUBoards
import IMUBus
import IMUDrivers

/// The acquisition loop the motion manager and every live command share: configures the chip,
/// paces reads at the chosen rate (or drains the FIFO at high rates), and hands each sample, in
/// device axes, to a handler until the handler says stop, `shouldStop` says so, or the duration
/// has passed. The chip is put to sleep at the end.
public struct AcquisitionLoop {
    /// At and above this rate the chip's FIFO collects samples and the loop drains it in batches.
    public static let fifoRateHz = 200.0

    public let driver: any IMUDriver
    public let clock: any MonotonicClock
    public let placement: IMUPlacement
    public let rate: Double
    /// Stop after this many seconds (on the clock).
    public var duration: Double?
    /// Where trouble is told, in words (the CLI prints it; the manager hands it to its consumers).
    public var report: (String) -> Void = { _ in }
    /// Where the end of an outage is told; `report` when nil (the CLI says both alike, the
    /// manager tells its handlers only of trouble: a recovery is not an error).
    public var recovered: ((String) -> Void)?
    /// Told the running total of lost samples whenever it grows (a live view shows it).
    public var onLost: (Int) -> Void = { _ in }
    /// Checked between reads: a stop asked for from outside (Ctrl-C, the manager's stop).
    public var shouldStop: () -> Bool = { false }

    public init(driver: any IMUDriver, clock: any MonotonicClock, placement: IMUPlacement, rate: Double, duration: Double? = nil) {
        self.driver = driver
        self.clock = clock
        self.placement = placement
        self.rate = rate
        self.duration = duration
    }

    /// Configures the chip; returns its effective configuration and the output rate.
    public func configure() throws(IMUDriverError) -> (configuration: IMUConfiguration, rateHz: Double) {
        try driver.configure(IMUSettings(sampleRateHz: rate))
        return (driver.configuration, usesFIFO ? driver.configuration.sampleRate.hertz : rate)
    }

    public var usesFIFO: Bool { rate >= Self.fifoRateHz && driver.capabilities.fifoCapacity > 0 }

    /// How often the chip's configuration is read back: a replug without a bus error leaves
    /// it at power-on defaults, and its samples would no longer be fresh.
    public static let healthCheckInterval = 0.5
    /// How often a lost chip is tried again.
    public static let retryInterval = 0.05

    /// Runs the loop (after `configure()`). `handle` returns true to stop; `afterBatch` runs after
    /// each read or drain (to flush output, show progress). Returns the samples lost (FIFO
    /// overflows, outages).
    ///
    /// The loop survives the faults of hobby wiring: a failed transfer starts an outage (said
    /// once, in words), the chip is tried again every 50 ms and, when it answers as itself,
    /// reconfigured (range, rate and FIFO as before: a replugged chip is back at its power-on
    /// defaults); the samples the outage cost are counted from the timestamps around it. Twice a second the configuration is
    /// read back, so a chip reset without a bus error (a brown-out) is caught too.
    @discardableResult
    public func run(afterBatch: () -> Void = {}, handle: (MotionSample) -> Bool) throws(IMUDriverError) -> Int {
        let start = clock.now
        let settings = IMUSettings(sampleRateHz: rate)
        var dropped = 0
        var outage: (since: Double, message: String)?
        var lastHealthCheck = clock.now
        defer { try? driver.sleep() }
        // An outage's loss is counted from the timestamps on either side of it (the first sample
        // after recovery against the last one before), so the time spent failing, retrying and
        // reconfiguring is all in it.
        let samplePeriod = 1 / (usesFIFO ? driver.configuration.sampleRate.hertz : rate)
        var lastTimestamp: Double?
        var countGapAtNextSample = false

        func deliver(_ sample: MotionSample) -> Bool {
            if countGapAtNextSample, let last = lastTimestamp {
                let missed = max(0, Int(((sample.timestamp - last) / samplePeriod).rounded()) - 1)
                if missed > 0 {
                    dropped += missed
                    onLost(dropped)
                }
            }
            countGapAtNextSample = false
            lastTimestamp = sample.timestamp
            if handle(placement.deviceSample(sample)) { return true }
            if let duration, sample.timestamp - start >= duration { return true }
            return false
        }

        var batch: [MotionSample] = []
        batch.reserveCapacity(max(driver.capabilities.fifoCapacity, 1))
        let drainWait = usesFIFO
            ? min(0.05, Double(driver.capabilities.fifoCapacity) / 2 / driver.configuration.sampleRate.hertz) : 0
        let period = 1 / rate
        var next = clock.now
        if usesFIFO { try driver.startFIFO() }
        while !shouldStop() {
            if let duration, clock.now - start >= duration { break }
            do throws(IMUDriverError) {
                if let lost = outage {
                    try driver.configure(settings)
                    if usesFIFO { try driver.startFIFO() }
                    let gap = clock.now - lost.since
                    countGapAtNextSample = true
                    (recovered ?? report)("the chip is back after \(String(format: "%.2f", gap)) s and reconfigured")
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
                    let overflowed = try driver.drainFIFO(into: &batch).dropped
                    if overflowed > 0 {
                        dropped += overflowed
                        onLost(dropped)
                    }
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
