import IMUBoards
import IMUBus
import IMUDrivers
import IMUFormats

/// `--low-power` (and `low-power = true` in a rules file): between shakes nothing is read. The
/// chip watches for motion in its low-power mode (`IMUDriver.watchForMotion`) and the loop
/// sleeps on the INT line's edge (libgpiod edge events; the twin's virtual GPIO chip); the edge
/// wakes the full-rate loop (calibration, fusion, recognisers), which goes back to idle once
/// nothing has moved for `quietSeconds`.
///
/// While idle only abrupt motion is seen: a slow turn does not wake the loop, so an orientation
/// change made slowly shows up at the next wake.
public struct LowPowerAcquisition {
    /// High-passed acceleration that wakes the loop (g): a hand's shake, not walking's bob.
    public var thresholdG = 0.5
    public var durationMilliseconds = 1
    /// How often the chip samples while watching (rounded to its table: MPU-6050 20 Hz,
    /// LSM9DS1 10 Hz).
    public var watchRateHz = 20.0
    /// Back to idle after this long without user acceleration above `activityG` and
    /// without a shake under way (s).
    public var quietSeconds = 1.0
    public var activityG = 0.2
    /// The INT line, requested for rising edges.
    public let interrupt: any GPIOInputLine
    /// Told each change between idle and awake, and each outage and recovery.
    public var notice: (Transition) -> Void = { _ in }

    /// Watches with `interrupt`: the chip's INT line on the header, requested for rising edges.
    public init(interrupt: any GPIOInputLine) {
        self.interrupt = interrupt
    }

    /// What the loop is doing, told as it changes.
    public enum Transition: Equatable, Sendable {
        /// The chip watches (at `watchRateHz`); nothing is read until the INT edge.
        case idle(at: Double, watchRateHz: Double)
        /// The INT edge came (its timestamp is the kernel's, or the twin's virtual time).
        case woke(edge: GPIOEdgeEvent)
        /// The chip stopped answering (or lost its configuration) while idle or waking; told
        /// once per outage (and again only when the problem changes).
        case outage(at: Double, problem: String)
        /// The chip answers again and is reconfigured: `watching` at that rate (Hz) again, or
        /// nil when it was waking and now measures at the full rate.
        case recovered(at: Double, afterSeconds: Double, watchingRateHz: Double?)

        public var note: String {
            switch self {
            case let .idle(time, rate):
                "idle at t=\(number(time, 3)) s: the chip watches for motion at \(number(rate, 2)) Hz"
            case let .woke(edge):
                "woken at t=\(number(edge.timestamp, 3)) s by the INT edge on line \(edge.line)"
            case let .outage(time, problem):
                "at t=\(number(time, 3)) s: \(problem); retrying every \(Int(AcquisitionLoop.retryInterval * 1000)) ms"
            case let .recovered(_, seconds, rate?):
                "the chip is back after \(number(seconds, 2)) s, reconfigured and watching for motion at \(number(rate, 2)) Hz again"
            case let .recovered(_, seconds, nil):
                "the chip is back after \(number(seconds, 2)) s and reconfigured"
            }
        }

        public var isTrouble: Bool { if case .outage = self { true } else { false } }
    }

    /// What a run cost: samples lost while awake (FIFO overflows, outages) and seconds in which
    /// the chip, out or unconfigured, was not watching while idle.
    public struct Losses: Equatable, Sendable {
        public var samples = 0
        public var unwatchedSeconds = 0.0

        public init(samples: Int = 0, unwatchedSeconds: Double = 0) {
            self.samples = samples
            self.unwatchedSeconds = unwatchedSeconds
        }
    }

    /// What a sample meant for the watch: keep measuring, or go idle once quiet.
    public enum Activity {
        case stop, warmingUp, active, quiet
    }

    /// Configures the chip, then alternates full-rate reading and idle watching until the
    /// duration is over or a stop is asked for. `events` gets what each sample completes,
    /// `transition` each change between idle and awake, and each outage and recovery.
    ///
    /// Idle and waking ride out bus faults like the full-rate loop (`AcquisitionLoop`): an
    /// outage is told once, the chip is tried again every 50 ms and, when it answers,
    /// reconfigured (a replugged chip is at its power-on defaults) and set watching again.
    /// While idle the watch is read back twice a second (one register), so a replug without a
    /// bus error, which leaves the chip deaf to motion, is caught too.
    /// Alternates full-rate reading (`loop`, configured) and idle watching until `remaining`
    /// runs out or `shouldStop`. `process` takes each sample and says whether motion goes on.
    @discardableResult
    public func run(
        loop: AcquisitionLoop, remaining: () -> Double?, housekeeping: () -> Void, shouldStop: () -> Bool,
        resumeAfterGap: () -> Void, process: (MotionSample) -> Activity
    ) throws(IMUDriverError) -> Losses {
        let clock = loop.clock, driver = loop.driver
        var losses = Losses()

        while !shouldStop() {
            // Awake: the shared acquisition loop at full rate, until quiet.
            var lastActivity = clock.now
            var wentQuiet = false
            var awake = loop
            awake.duration = remaining()
            losses.samples += try awake.run(afterBatch: housekeeping) { sample in
                switch process(sample) {
                case .stop: return true
                case .warmingUp: return false
                case .active: lastActivity = sample.timestamp
                case .quiet: break
                }
                wentQuiet = sample.timestamp - lastActivity >= quietSeconds
                return wentQuiet
            }
            guard wentQuiet, remaining().map({ $0 > 0 }) ?? true else { return losses }

            // Idle: the chip watches, the loop waits on the INT edge.
            var outages = Outages(clock: clock)
            guard let edge = try idle(
                driver: driver, clock: clock, rate: loop.rate, remaining: remaining, housekeeping: housekeeping,
                shouldStop: shouldStop, outages: &outages)
            else {
                losses.unwatchedSeconds += outages.seconds
                try? driver.sleep()  // stopped while idle: the chip sleeps, as after a full-rate run
                return losses
            }
            notice(.woke(edge: edge))
            // Back to measuring; a fault here is ridden out by configuring the chip afresh.
            var woken = false
            while !woken && !shouldStop() && remaining().map({ $0 > 0 }) ?? true {
                do throws(IMUDriverError) {
                    if outages.isOut { try driver.configure(IMUSettings(sampleRateHz: loop.rate)) } else { try driver.endMotionWatch() }
                    outages.recovered(watchingRateHz: nil, tell: notice)
                    woken = true
                } catch {
                    outages.failed("\(error)", tell: notice)
                    housekeeping()
                    clock.sleep(seconds: AcquisitionLoop.retryInterval)
                }
            }
            losses.unwatchedSeconds += outages.seconds
            guard woken else { return losses }
            resumeAfterGap()
        }
        return losses
    }

    /// An outage under way while idle or waking: told once, its length added up on recovery.
    private struct Outages {
        let clock: any MonotonicClock
        var current: (since: Double, problem: String)?
        /// Seconds spent out, over the outages that ended.
        var seconds = 0.0

        var isOut: Bool { current != nil }

        mutating func failed(_ problem: String, tell transition: (Transition) -> Void) {
            if let out = current {
                guard out.problem != problem else { return }
                current!.problem = problem  // something new (a clone answering): said once too
            } else {
                current = (clock.now, problem)
            }
            transition(.outage(at: clock.now, problem: problem))
        }

        mutating func recovered(watchingRateHz: Double?, tell transition: (Transition) -> Void) {
            guard let out = current else { return }
            current = nil
            seconds += clock.now - out.since
            transition(.recovered(at: clock.now, afterSeconds: clock.now - out.since, watchingRateHz: watchingRateHz))
        }
    }

    /// Sets the chip watching and waits for the INT line's rising edge (edges queued before the
    /// watch began are dropped; a line already high is motion latched since). nil when the
    /// duration ran out or a stop was asked for. Wakes twice a second for `housekeeping` (the
    /// stop flag, a reload) and to read the watch back; a fault sets the chip up afresh.
    private func idle(
        driver: any IMUDriver, clock: any MonotonicClock, rate: Double, remaining: () -> Double?, housekeeping: () -> Void,
        shouldStop: () -> Bool, outages: inout Outages
    ) throws(IMUDriverError) -> GPIOEdgeEvent? {
        let transition = notice
        var announced = false
        var watching = false
        var lastCheck = clock.now
        while !shouldStop() {
            let left = remaining()
            if let left, left <= 0 { return nil }
            let rearmed: Double?
            do throws(IMUDriverError) {
                rearmed = try armOrCheck(driver: driver, clock: clock, rate: rate, watching: watching, lastCheck: &lastCheck, reconfigure: outages.isOut)
            } catch {
                watching = false
                outages.failed("\(error)", tell: transition)
                housekeeping()
                clock.sleep(seconds: AcquisitionLoop.retryInterval)
                continue
            }
            do throws(GPIOError) {
                if let watchRate = rearmed {
                    watching = true
                    while try interrupt.waitForEdge(timeout: 0) != nil {}
                    if !announced {
                        announced = true
                        transition(.idle(at: clock.now, watchRateHz: watchRate))
                    }
                    outages.recovered(watchingRateHz: watchRate, tell: transition)
                    if try interrupt.read() {
                        return GPIOEdgeEvent(kind: .rising, line: interrupt.offset, timestamp: clock.now)
                    }
                }
                let wait = min(AcquisitionLoop.healthCheckInterval - (clock.now - lastCheck), left ?? .infinity)
                if let edge = try interrupt.waitForEdge(timeout: max(wait, 0)) { return edge }
            } catch {
                if shouldStop() { return nil }  // a signal interrupted the wait
                // The INT line's chip went away (ENODEV): an outage like the IMU's. The
                // line is requested again at the next try (ReacquiringGPIOChip) and the
                // watch armed afresh, which reads the line's level (edges meanwhile are lost).
                watching = false
                outages.failed("\(error)", tell: transition)
                housekeeping()
                clock.sleep(seconds: AcquisitionLoop.retryInterval)
                continue
            }
            housekeeping()
        }
        return nil
    }

    /// Not watching: (reconfigures the chip after an outage and) sets it watching, returning
    /// the rate it watches at. Watching: reads the watch back when a check is due; nil.
    private func armOrCheck(
        driver: any IMUDriver, clock: any MonotonicClock, rate: Double, watching: Bool, lastCheck: inout Double, reconfigure: Bool
    ) throws(IMUDriverError) -> Double? {
        if !watching {
            if reconfigure { try driver.configure(IMUSettings(sampleRateHz: rate)) }
            let watchRate = try driver.watchForMotion(
                thresholdG: thresholdG, durationMilliseconds: durationMilliseconds, rateHz: watchRateHz)
            lastCheck = clock.now
            return watchRate
        }
        if clock.now - lastCheck >= AcquisitionLoop.healthCheckInterval {
            lastCheck = clock.now
            guard try driver.isWatchingForMotion() else {
                throw .unsupported("the chip lost its low-power configuration (a power cut or replug?)")
            }
        }
        return nil
    }
}

/// Why low power cannot be had on this device, in words.
public struct LowPowerUnavailable: Error, CustomStringConvertible {
    public let description: String
}

extension LowPowerAcquisition {
    /// Watches with the INT line of `device` (its board profile's `interrupt-pin`) on the
    /// header's GPIO chip, requested for rising edges.
    public init(device: IMUDevice, gpio: HeaderGPIO) throws(LowPowerUnavailable) {
        guard let pin = device.placement.interruptPin else {
            throw LowPowerUnavailable(description: Self.noInterruptPinReason(board: device.board))
        }
        guard let line = gpio.headerPins[pin] else {
            throw LowPowerUnavailable(
                description: "the INT pin of '\(device.board.name)' is header pin \(pin), which has no GPIO line on \(gpio.chip.label)")
        }
        do {
            self.init(interrupt: try gpio.chip.requestInput(line: line, consumer: "imu INT", edge: .rising, bias: .asIs))
        } catch {
            throw LowPowerUnavailable(description: "\(error)")
        }
    }

    /// Why there is no low power without an INT pin, and what can be done. The Sense HAT's INT
    /// lines go to its own ATtiny88, not to the header (pinout.xyz): nothing to wire there. A
    /// breakout's INT can be wired to a free header pin and named in its profile.
    public static func noInterruptPinReason(board: BoardProfile) -> String {
        if board.name == "sense-hat" {
            return """
                low power needs the chip's INT pin on the header, and on the \(board.title) it is not there \
                (the LSM9DS1's INT lines go to the hat's ATtiny88 microcontroller): run without --low-power \
                (and without low-power = true in the rules)
                """
        }
        return "low power needs the chip's INT pin wired to the header, and the board '\(board.name)' names none: wire INT to a free GPIO pin and add interrupt-pin = <header pin> to its profile"
    }
}
