import IMUBus
import IMUDrivers
import IMUEvents

/// `--low-power` (and `low-power = true` in a rules file): between shakes nothing is read. The
/// chip watches for motion in its low-power mode (`IMUDriver.watchForMotion`) and the loop
/// sleeps on the INT line's edge (libgpiod edge events; the twin's virtual GPIO chip); the edge
/// wakes the full-rate loop (calibration, fusion, recognisers), which goes back to idle once
/// nothing has moved for `quietSeconds`.
///
/// While idle only abrupt motion is seen: a slow turn does not wake the loop, so an orientation
/// change made slowly shows up at the next wake.
struct LowPowerWatch {
    struct Settings {
        /// High-passed acceleration that wakes the loop (g): a hand's shake, not walking's bob.
        var thresholdG = 0.5
        var durationMilliseconds = 1
        /// How often the chip samples while watching (rounded to its table: MPU-6050 20 Hz,
        /// LSM9DS1 10 Hz).
        var watchRateHz = 20.0
        /// Back to idle after this long without user acceleration above `activityG` and
        /// without a shake under way (s).
        var quietSeconds = 1.0
        var activityG = 0.2
    }

    /// What the loop is doing, told as it changes.
    enum Transition: Equatable {
        /// The chip watches (at `watchRateHz`); nothing is read until the INT edge.
        case idle(at: Double, watchRateHz: Double)
        /// The INT edge came (its timestamp is the kernel's, or the twin's virtual time).
        case woke(edge: GPIOEdgeEvent)

        var note: String {
            switch self {
            case let .idle(time, rate):
                "idle at t=\(number(time, 3)) s: the chip watches for motion at \(number(rate, 2)) Hz"
            case let .woke(edge):
                "woken at t=\(number(edge.timestamp, 3)) s by the INT edge on line \(edge.line)"
            }
        }
    }

    let session: HardwareSession
    let rate: Double
    var duration: Double?
    var settings = Settings()
    /// The INT line, requested for rising edges.
    let interrupt: any GPIOInputLine

    /// Requests the INT line of the session's chip (the board profile's `interrupt-pin`).
    init(session: HardwareSession, rate: Double, duration: Double?, gpio: (chip: any GPIOChip, headerPins: [Int: Int])? = nil) throws {
        guard let pin = session.placement.interruptPin else {
            throw CommandError("low power needs the chip's INT pin wired to the header, and the board '\(session.board.name)' names none (add interrupt-pin = <header pin> to its profile)")
        }
        let (chip, headerPins) = try gpio ?? session.headerGPIO()
        guard let line = headerPins[pin] else {
            throw CommandError("the INT pin of '\(session.board.name)' is header pin \(pin), which has no GPIO line on \(chip.label)")
        }
        do {
            interrupt = try chip.requestInput(line: line, consumer: "imu INT", edge: .rising, bias: .asIs)
        } catch {
            throw CommandError("\(error)")
        }
        self.session = session
        self.rate = rate
        self.duration = duration
    }

    /// Configures the chip, then alternates full-rate reading and idle watching until the
    /// duration is over or a stop is asked for. `events` gets what each sample completes,
    /// `transition` each change between idle and awake.
    func run(
        pipeline: inout EventPipeline, afterBatch: () -> Void = {}, events: ([MotionEvent]) -> Void,
        transition: (Transition) -> Void = { _ in }
    ) throws {
        let clock = session.clock, driver = session.driver
        let start = clock.now
        func remaining() -> Double? { duration.map { $0 - (clock.now - start) } }
        _ = try SampleStream(session: session, rate: rate).configure()

        while !StopSignal.isRequested {
            // Awake: the shared acquisition loop at full rate, until quiet.
            var lastActivity = clock.now
            var wentQuiet = false
            let stream = SampleStream(session: session, rate: rate, duration: remaining())
            try stream.run(afterBatch: afterBatch) { sample in
                events(pipeline.update(sample))
                guard let motion = pipeline.lastMotion else { return false }  // warming up
                if pipeline.detector.shake.isShaking || motion.userAcceleration.length >= settings.activityG {
                    lastActivity = sample.timestamp
                }
                wentQuiet = sample.timestamp - lastActivity >= settings.quietSeconds
                return wentQuiet
            }
            guard wentQuiet, remaining().map({ $0 > 0 }) ?? true else { return }

            // Idle: the chip watches, the loop waits on the INT edge.
            let watchRate: Double
            do {
                watchRate = try driver.watchForMotion(
                    thresholdG: settings.thresholdG, durationMilliseconds: settings.durationMilliseconds,
                    rateHz: settings.watchRateHz)
            } catch {
                throw CommandError("\(error)")
            }
            guard let edge = try waitForEdge(
                remaining: remaining, housekeeping: afterBatch,
                announce: { transition(.idle(at: clock.now, watchRateHz: watchRate)) })
            else {
                try? driver.sleep()  // stopped while idle: the chip sleeps, as after a full-rate run
                return
            }
            transition(.woke(edge: edge))
            do { try driver.endMotionWatch() } catch { throw CommandError("\(error)") }
            pipeline.resumeAfterGap()
        }
    }

    /// Waits for the INT line's rising edge (edges queued before the watch began are dropped;
    /// a line already high is motion latched since). nil when the duration ran out or a stop
    /// was asked for. Wakes twice a second only for `housekeeping` (the stop flag, a reload).
    private func waitForEdge(remaining: () -> Double?, housekeeping: () -> Void, announce: () -> Void) throws -> GPIOEdgeEvent? {
        do {
            while try interrupt.waitForEdge(timeout: 0) != nil {}
            announce()
            if try interrupt.read() {
                return GPIOEdgeEvent(kind: .rising, line: interrupt.offset, timestamp: session.clock.now)
            }
            while !StopSignal.isRequested {
                let left = remaining()
                if let left, left <= 0 { return nil }
                if let edge = try interrupt.waitForEdge(timeout: min(0.5, left ?? 0.5)) { return edge }
                housekeeping()
            }
            return nil
        } catch {
            if StopSignal.isRequested { return nil }  // a signal interrupted the wait
            throw CommandError("\(error)")
        }
    }
}
