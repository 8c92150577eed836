import Foundation
import IMUBus
import IMUCalibration
import IMUDrivers
import IMUMotion
import Synchronization

/// The one engine: acquisition (paced reads or FIFO drains, low power with the INT wake, bus
/// outages ridden out) → mounting → calibration (with the hard iron it tracks online) → fusion
/// → device motion → recognisers, publishing typed outputs to any number of subscribers.
///
/// Two kinds of subscriber:
/// - `observe` runs a handler on the engine's thread for each output: for the process's own
///   consumer whose pace is the engine's (a command printing lines, the daemon's rules, which
///   must switch a relay before the next sample is read). A handler must be quick.
/// - `subscribe` gives a bounded queue another thread takes from: a slow subscriber loses
///   outputs (counted and told), never delays acquisition or the others.
///
/// The chip sleeps while nothing needs data (only health, or nobody) and is woken at the next
/// subscription. `run()` works on the calling thread; `start()` on a thread of its own.
///
/// ```swift
/// let engine = MotionEngine(device: device, settings: .init(rateHz: 100, calibration: SensorCalibration(file: nil)))
/// let events = engine.subscribe([.events])
/// engine.start()
/// while let (output, lost) = events.next() { print(output.jsonLine, lost) }
/// ```
public final class MotionEngine: @unchecked Sendable {
    public struct Settings {
        public var rateHz: Double
        /// Stop after this many seconds (on the device's clock); nil: until stopped.
        public var duration: Double?
        public var calibration: SensorCalibration
        /// The attitude's reference frame; nil: magnetic north with a magnetometer, else arbitrary.
        public var frame: FrameConversion?
        /// Heading changes at least this big are events; nil: no heading events.
        public var headingFilterDegrees: Double?
        /// Between bursts of motion nothing is read: the chip watches in its low-power mode and
        /// the engine waits on its INT line (see `LowPowerAcquisition`).
        public var lowPower: LowPowerAcquisition?
        /// Where the gyro offsets learned at rest are kept (`<directory>/learned/`): loaded at
        /// the start, saved once a minute when they changed and at the end. nil: learned afresh
        /// each run and not kept.
        public var learnedGyroOffsetsDirectory: String?

        public init(
            rateHz: Double, duration: Double? = nil, calibration: SensorCalibration, frame: FrameConversion? = nil,
            headingFilterDegrees: Double? = nil, lowPower: LowPowerAcquisition? = nil, learnedGyroOffsetsDirectory: String? = nil
        ) {
            self.rateHz = rateHz
            self.duration = duration
            self.calibration = calibration
            self.frame = frame
            self.headingFilterDegrees = headingFilterDegrees
            self.lowPower = lowPower
            self.learnedGyroOffsetsDirectory = learnedGyroOffsetsDirectory
        }

        /// How often learned gyro offsets that changed are saved (s, on the device's clock).
        public static let learnedOffsetsSaveInterval = 60.0
    }

    /// Said as acquisition goes: trouble (outages), recoveries, low-power transitions.
    public enum Notice: Sendable, Equatable {
        case trouble(String)
        case recovered(String)
        case lowPower(LowPowerAcquisition.Transition)

        public var text: String {
            switch self {
            case .trouble(let text), .recovered(let text): text
            case .lowPower(let transition): transition.note
            }
        }

        public var isTrouble: Bool {
            switch self {
            case .trouble: true
            case .recovered: false
            case .lowPower(let transition): transition.isTrouble
            }
        }
    }

    public let device: IMUDevice
    public let settings: Settings
    /// The chip's output rate once configured (the FIFO's rate at high rates).
    public private(set) var outputRateHz: Double

    /// Told each notice, on the engine's thread. Set before `run`/`start`.
    public var onNotice: (Notice) -> Void = { _ in }
    /// Run on the engine's thread after each read or drain and while idle or asleep (at least
    /// twice a second): housekeeping such as a reload asked for by a signal. Set before `run`.
    public var housekeeping: () -> Void = {}
    /// Checked between reads: a stop asked for from outside (a signal). Set before `run`.
    public var shouldStop: () -> Bool = { false }

    private struct Observer {
        /// The streams as `MotionStream.bit`s.
        let streamBits: UInt8
        let handler: (MotionOutput) -> Void
    }

    private struct Subscribers {
        // Called in key order: the order they were added, `first` ones before the rest.
        var observers: [Int: Observer] = [:] {
            didSet {
                observerList = observers.sorted { $0.key < $1.key }.map(\.value)
                streamsWanted = wantedBits()
                version += 1
            }
        }
        var queues: [ObjectIdentifier: MotionSubscription] = [:] {
            didSet {
                queueList = Array(queues.values)
                streamsWanted = wantedBits()
                version += 1
            }
        }
        /// The same, as the engine's thread reads them for every sample (rebuilt only on change).
        private(set) var observerList: [Observer] = []
        private(set) var queueList: [MotionSubscription] = []
        /// The streams anyone wants, as `MotionStream.bit`s (kept on change, read every sample).
        private(set) var streamsWanted: UInt8 = 0
        /// Counts the changes to the lists: the engine's thread takes them again only after one.
        private(set) var version = 0
        var nextKey = 0
        /// Changes to the pipeline asked for from other threads, applied before the next sample.
        var pipelineChanges: [(inout MotionPipeline) -> Void] = []
        var health = EngineHealth()
        /// The calibration in force (the settings', until `setCalibration`).
        var calibrationFile: CalibrationFile?
        var ended = false

        /// Whether anything needs samples, motion or events (health alone does not wake the chip).
        var hasDemand: Bool { streamsWanted & ~MotionStream.health.bit != 0 }

        private func wantedBits() -> UInt8 {
            observerList.reduce(0) { $0 | $1.streamBits } | queueList.reduce(0) { $0 | $1.streamBits }
        }
    }

    private let subscribers = Protected(Subscribers())
    /// What the engine's thread keeps between samples (only it touches this, never by two
    /// accesses at once: unchecked, like `pipeline`).
    private struct Delivery {
        /// `Subscribers.observerList` and `queueList` as of `version`.
        var observers: [Observer] = []
        var queues: [MotionSubscription] = []
        var version = -1
        var lastHealthTold = -Double.infinity
    }
    @exclusivity(unchecked) private var delivery = Delivery()
    /// `Subscribers.hasDemand`, stored under the lock whenever subscribers change: asked before
    /// every read, without taking the lock.
    private let demand = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    /// Touched only on the engine's thread (run, its closures, housekeeping), never by two
    /// accesses at once: unchecked, as the dynamic exclusivity check on every sample cost more
    /// than the rest of the engine's own work.
    @exclusivity(unchecked) private var pipeline: MotionPipeline
    /// Said at the start of `run` (found before `onNotice` was set).
    private var pendingNotice: Notice?
    private var learnedOffsetsSavedAt = -Double.infinity
    /// `configure()` was called and `run` has not started: its first configuration is done.
    private var preconfigured = false

    public init(device: IMUDevice, settings: Settings) {
        self.device = device
        self.settings = settings
        outputRateHz = settings.rateHz
        pipeline = MotionPipeline(
            calibration: settings.calibration, magnetometer: device.driver.capabilities.magnetometer,
            frame: settings.frame, headingFilterDegrees: settings.headingFilterDegrees)
        referenceFrame = pipeline.referenceFrame
        if let directory = settings.learnedGyroOffsetsDirectory {
            do {
                let learned = try LearnedGyroOffsetsStore.load(device.chipIdentity, from: directory)
                pipeline.gyroOffsetLearning = GyroOffsetLearning(offsets: learned ?? LearnedGyroOffsets())
            } catch {
                // Told when the engine runs (onNotice is set by then); learning starts afresh.
                pendingNotice = .trouble("the learned gyro offsets are unusable, learning afresh: \(error)")
                pipeline.gyroOffsetLearning = GyroOffsetLearning()
            }
        }
        subscribers.withLock {
            $0.health.rateHz = settings.rateHz
            $0.health.calibration = settings.calibration.summary
            $0.health.magnetometerAccuracy = device.driver.capabilities.magnetometer ? "\(settings.calibration.magnetometerAccuracy)" : nil
            $0.calibrationFile = settings.calibration.file
        }
    }

    /// The calibration file in force (nil: uncalibrated): the settings', or the last one set.
    public var calibrationFile: CalibrationFile? { subscribers.withLock { $0.calibrationFile } }

    /// The attitude's reference frame.
    public let referenceFrame: ReferenceFrame

    /// How acquisition is going now.
    public var health: EngineHealth { subscribers.withLock { $0.health } }

    // MARK: Subscribers

    /// Runs `handler` on the engine's thread for each output of `streams`, until the returned
    /// key is passed to `removeObserver`. Add before `run()` for the first samples. Observers
    /// run in the order they were added; `first`: before every observer added without it (a
    /// daemon's rules, added again at a reload, still switch their lines before a front end
    /// formats the event).
    @discardableResult
    public func observe(_ streams: Set<MotionStream>, first: Bool = false, _ handler: @escaping (MotionOutput) -> Void) -> Int {
        subscribers.withLock {
            $0.nextKey += 1
            // Keys sort the observers: the first ones' are negative.
            let key = first ? -$0.nextKey : $0.nextKey
            $0.observers[key] = Observer(streamBits: MotionStream.bits(streams), handler: handler)
            demand.store($0.hasDemand, ordering: .relaxed)
            return key
        }
    }

    public func removeObserver(_ key: Int) {
        subscribers.withLock {
            $0.observers.removeValue(forKey: key)
            demand.store($0.hasDemand, ordering: .relaxed)
        }
    }

    /// A queued subscriber for another thread. `capacity` outputs are held for it; beyond that
    /// the oldest are dropped and counted. `motionDivisor`: every n-th device motion.
    /// `eventTypes`: only these (`MotionEvent.type`: shake, orientation, slap, heading); nil: all.
    /// `lines`: the subscriber takes each output's JSON line (`nextLine`); the engine then builds
    /// the line once per output and every such subscriber shares it (the front ends: ten clients
    /// of a stream cost one line, not ten).
    public func subscribe(
        _ streams: Set<MotionStream>, capacity: Int = 1024, motionDivisor: Int = 1, eventTypes: Set<String>? = nil,
        lines: Bool = false
    ) -> MotionSubscription {
        let subscription = MotionSubscription(
            streams: streams, capacity: capacity, motionDivisor: motionDivisor, eventTypes: eventTypes, lines: lines)
        let id = ObjectIdentifier(subscription)
        subscription.onCancel = { [weak self] in
            guard let self else { return }
            subscribers.withLock {
                $0.queues.removeValue(forKey: id)
                demand.store($0.hasDemand, ordering: .relaxed)
            }
        }
        let alreadyEnded = subscribers.withLock { state -> Bool in
            if !state.ended { state.queues[id] = subscription }
            demand.store(state.hasDemand, ordering: .relaxed)
            return state.ended
        }
        if alreadyEnded { subscription.end() } else if streams.contains(.health) { subscription.offer(.health(health)) }
        return subscription
    }

    /// Changes the pipeline (a new heading filter, a reloaded calibration) on the engine's thread,
    /// before the next sample.
    public func changePipeline(_ change: @escaping (inout MotionPipeline) -> Void) {
        subscribers.withLock { $0.pipelineChanges.append(change) }
    }

    /// Applies a calibration saved while running (the dashboard's): the pipeline from the next
    /// sample, and what health tells from now.
    public func setCalibration(_ calibration: SensorCalibration) {
        let magnetometer = device.driver.capabilities.magnetometer
        subscribers.withLock {
            $0.pipelineChanges.append { $0.setCalibration(calibration) }
            $0.calibrationFile = calibration.file
            $0.health.calibration = calibration.summary
            $0.health.magnetometerAccuracy = magnetometer ? "\(calibration.magnetometerAccuracy)" : nil
        }
    }

    // MARK: Running

    /// Configures the chip ahead of `run` (which configures it again): for a caller that names
    /// the ranges and the output rate before the first sample.
    @discardableResult
    public func configure() throws(IMUDriverError) -> (configuration: IMUConfiguration, rateHz: Double) {
        let loop = AcquisitionLoop(driver: device.driver, clock: device.clock, placement: device.placement, rate: settings.rateHz)
        let configured = try loop.configure()
        outputRateHz = configured.rateHz
        preconfigured = true
        return configured
    }

    /// Whether the chip's FIFO collects the samples (at and above `AcquisitionLoop.fifoRateHz`).
    public var usesFIFO: Bool {
        AcquisitionLoop(driver: device.driver, clock: device.clock, placement: device.placement, rate: settings.rateHz).usesFIFO
    }

    /// Runs on a thread of its own until `stop()`, the duration, or an error it cannot ride out
    /// (told as the last health's `problem`).
    public func start() {
        let thread = Thread { [self] in
            do throws(IMUDriverError) {
                try run()
            } catch {
                onNotice(.trouble("\(error)"))
            }
        }
        thread.name = "imu engine"
        thread.start()
    }

    /// Asks the engine to stop and waits until it has (the chip asleep, subscribers ended).
    public func stop() {
        requestStop()
        waitUntilEnded()
    }

    /// Asks the engine to stop at its next sample (also from a handler on its own thread).
    public func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    /// Waits until the engine has ended (returns at once if it never started).
    public func waitUntilEnded() {
        guard started.load(ordering: .acquiring) else { return }
        ended.wait()
        ended.signal()
    }

    /// Runs acquisition on the calling thread until a stop, the duration, or an error it cannot
    /// ride out (the chip refusing its configuration at the start).
    public func run() throws(IMUDriverError) {
        started.store(true, ordering: .releasing)
        defer { finish() }
        if let notice = pendingNotice { onNotice(notice) }
        let callerHousekeeping = housekeeping
        // Run after every read: without a directory for learned offsets there is nothing to save.
        let housekeeping = settings.learnedGyroOffsetsDirectory == nil ? callerHousekeeping : { [self] in
            saveLearnedOffsets(ifDueAt: device.clock.now)
            callerHousekeeping()
        }
        // Read once (it is set before `run`): the property's read is checked for exclusivity.
        let callerShouldStop = shouldStop
        func isStopping() -> Bool { stopRequested.load(ordering: .relaxed) || callerShouldStop() }
        let clock = device.clock
        let start = clock.now
        func remaining() -> Double? { settings.duration.map { $0 - (clock.now - start) } }
        var loop = AcquisitionLoop(driver: device.driver, clock: clock, placement: device.placement, rate: settings.rateHz)
        // An I²C adapter that goes away and comes back is told like the chip's outages.
        (device.bus as? ReopeningI2CBus)?.note = { [self] in onNotice(.trouble($0)) }
        loop.report = { [self] message in
            updateHealth { health in
                if health.state != .outage { health.outages += 1 }
                health.state = .outage
                health.problem = message
            }
            onNotice(.trouble(message))
        }
        loop.recovered = { [self] message in
            updateHealth { health in
                health.state = .measuring
                health.problem = nil
            }
            onNotice(.recovered(message))
        }
        var lostBefore = 0
        loop.onLost = { [self] total in updateHealth { $0.lostSamples = lostBefore + total } }
        loop.shouldStop = { [self] in isStopping() || !hasDemand }
        delivery = Delivery()

        func process(_ raw: MotionSample) -> Bool {
            let (wantsHealth, wanted, changes) = takeSample(at: raw.timestamp)
            for change in changes { change(&pipeline) }
            // A sample or a motion nobody wants is not wrapped and handed round (a command that
            // prints events only would copy both for nothing at every sample).
            if wanted & MotionStream.samples.bit != 0 { publish(.sample(raw), delivery.observers, delivery.queues) }
            if let events = pipeline.advance(raw) {
                if wanted & MotionStream.motion.bit != 0, let motion = pipeline.lastMotion {
                    publish(.motion(motion), delivery.observers, delivery.queues)
                }
                for event in events { publish(.event(event), delivery.observers, delivery.queues) }
            }
            if let health = wantsHealth { publish(.health(health), delivery.observers, delivery.queues) }
            return isStopping()
        }

        while !isStopping() {
            if let left = remaining(), left <= 0 { break }
            guard hasDemand else {
                try? device.driver.sleep()
                updateHealth { $0.state = .asleep }
                clock.sleep(seconds: min(AcquisitionLoop.retryInterval, remaining() ?? .infinity))
                housekeeping()
                continue
            }
            loop.duration = remaining()
            if preconfigured {
                preconfigured = false
            } else {
                outputRateHz = try loop.configure().rateHz
            }
            updateHealth { $0.state = .measuring }
            if var lowPower = settings.lowPower {
                lowPower.notice = { [self] transition in
                    switch transition {
                    case .idle: updateHealth { $0.state = .idle }
                    case .outage(_, let problem):
                        updateHealth { health in
                            if health.state != .outage { health.outages += 1 }
                            health.state = .outage
                            health.problem = problem
                        }
                    case .woke, .recovered: updateHealth { health in
                        health.state = .measuring
                        health.problem = nil
                    }
                    }
                    onNotice(.lowPower(transition))
                }
                let losses = try lowPower.run(
                    loop: loop, remaining: remaining, housekeeping: housekeeping, shouldStop: isStopping,
                    resumeAfterGap: { [self] in pipeline.resumeAfterGap() }
                ) { [self] raw in
                    if process(raw) { return .stop }
                    guard let motion = pipeline.lastMotion else { return .warmingUp }
                    return pipeline.detector.shake.isShaking || motion.userAcceleration.length >= lowPower.activityG
                        ? .active : .quiet
                }
                lostBefore += losses.samples
                updateHealth { health in
                    health.lostSamples = lostBefore
                    health.unwatchedSeconds += losses.unwatchedSeconds
                }
                break
            }
            lostBefore += try loop.run(afterBatch: housekeeping, handle: process)
        }
    }

    private var hasDemand: Bool { demand.load(ordering: .relaxed) }

    private func updateHealth(_ change: (inout EngineHealth) -> Void) {
        let (changed, health, queues, observers) = subscribers.withLock { state in
            let before = state.health
            change(&state.health)
            state.health.timestamp = device.clock.now
            return (!before.sameCondition(as: state.health), state.health, state.queueList, state.observerList)
        }
        guard changed else { return }
        publish(.health(health), observers, queues)
    }

    /// One lock per sample: counts it, brings `delivery`'s subscribers up to date (they get this
    /// sample's outputs), and returns the health to tell with it (once a second), the streams
    /// they want (`MotionStream.bit`s) and the pipeline changes to apply before it.
    private func takeSample(at timestamp: Double) -> (EngineHealth?, UInt8, [(inout MotionPipeline) -> Void]) {
        subscribers.withLock { state in
            state.health.samples += 1
            state.health.timestamp = timestamp
            if delivery.version != state.version {
                delivery.observers = state.observerList
                delivery.queues = state.queueList
                delivery.version = state.version
            }
            var health: EngineHealth?
            if timestamp - delivery.lastHealthTold >= 1 {
                delivery.lastHealthTold = timestamp
                health = state.health
            }
            var changes: [(inout MotionPipeline) -> Void] = []
            if !state.pipelineChanges.isEmpty { swap(&changes, &state.pipelineChanges) }
            return (health, state.streamsWanted, changes)
        }
    }

    private func publish(_ output: MotionOutput, _ observers: [Observer], _ queues: [MotionSubscription]) {
        let bit = output.stream.bit
        for observer in observers where observer.streamBits & bit != 0 { observer.handler(output) }
        // The line is built at most once, for the first subscriber that takes lines.
        var line: String?
        for queue in queues where queue.wants(output) {
            if queue.takesLines, line == nil { line = output.jsonLine }
            queue.offer(output, line: line)
        }
    }

    /// Saves the learned gyro offsets when they changed and a minute has passed (`at` nil: now,
    /// whatever the time). A failure is told as trouble; learning goes on.
    private func saveLearnedOffsets(ifDueAt now: Double?) {
        guard let directory = settings.learnedGyroOffsetsDirectory, let learning = pipeline.gyroOffsetLearning,
              learning.needsSaving else { return }
        if let now {
            guard now - learnedOffsetsSavedAt >= Settings.learnedOffsetsSaveInterval else { return }
            learnedOffsetsSavedAt = now
        }
        do {
            _ = try LearnedGyroOffsetsStore.save(learning.offsets, for: device.chipIdentity, in: directory)
            pipeline.gyroOffsetLearning?.markSaved()
        } catch {
            onNotice(.trouble("cannot save the learned gyro offsets: \(error)"))
        }
    }

    private func finish() {
        saveLearnedOffsets(ifDueAt: nil)
        try? device.driver.sleep()
        updateHealth { $0.state = .stopped }
        let queues = subscribers.withLock { state -> [MotionSubscription] in
            state.ended = true
            return state.queueList
        }
        for queue in queues { queue.end() }
        ended.signal()
    }
}
