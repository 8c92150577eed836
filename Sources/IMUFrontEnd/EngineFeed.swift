import IMUEngine
import IMUShareClient

/// The engine as every front end's feed: its subscriptions are the engine's own bounded queues,
/// taking lines the engine builds once per output for all of them.
public final class EngineFeed: Feed, @unchecked Sendable {
    public let engine: MotionEngine
    /// Where a reload looks for the chip's calibration file (the daemon's search path); nil:
    /// reloads are refused.
    public let calibrationSearchPath: [String]?

    public init(engine: MotionEngine, calibrationSearchPath: [String]? = nil) {
        self.engine = engine
        self.calibrationSearchPath = calibrationSearchPath
    }

    public var info: FeedInfo {
        let device = engine.device
        return FeedInfo(
            chip: device.driver.model.rawValue, board: device.board.name, bus: device.bus.name,
            address: Int(device.placement.address), rateHz: rateHz, magnetometer: device.driver.capabilities.magnetometer,
            referenceFrame: engine.referenceFrame.rawValue)
    }

    /// The rate reached once running, the rate asked for before.
    var rateHz: Double { engine.outputRateHz > 0 ? engine.outputRateHz : engine.settings.rateHz }

    public var clockSeconds: Double { engine.device.clock.now }
    public var healthLine: String? { engine.health.jsonLine }

    public func reloadCalibration() throws(RequestError) -> CalibrationReloaded {
        guard let calibrationSearchPath else { throw RequestError("this server keeps no calibration to reload") }
        let before = engine.health.calibration
        do {
            let (path, calibration) = try engine.reloadCalibration(searching: calibrationSearchPath)
            return CalibrationReloaded(
                path: path, parts: calibration.summary,
                magnetometerAccuracy: engine.device.driver.capabilities.magnetometer ? "\(calibration.magnetometerAccuracy)" : nil)
        } catch {
            let reason = "\(error)".split(separator: "\n").joined(separator: " ")
            throw RequestError("the calibration was not reloaded, the one in force (\(before)) is kept: \(reason)")
        }
    }

    public func subscribe(_ request: FeedRequest) -> any FeedSubscription {
        let streams = Set(request.streams.compactMap(\.engineStream))
        return EngineFeedSubscription(engine.subscribe(
            streams, capacity: request.capacity, motionDivisor: request.motionDivisor, eventTypes: request.eventTypes, lines: true))
    }
}

final class EngineFeedSubscription: FeedSubscription, @unchecked Sendable {
    let subscription: MotionSubscription

    init(_ subscription: MotionSubscription) { self.subscription = subscription }

    func next(timeoutSeconds: Double?) -> (output: FeedOutput, lostBefore: Int)? {
        guard let (output, line, lost) = subscription.nextLine(timeoutSeconds: timeoutSeconds) else { return nil }
        var fed = FeedOutput(stream: ShareStream(output.stream), jsonLine: line)
        switch output {
        case .event(let event): fed.event = event
        case .motion(let motion):
            fed.headingDegrees = motion.heading
            fed.gravity = motion.gravity
        case .sample(let sample): fed.sample = sample
        default: break
        }
        return (fed, lost)
    }

    var ended: Bool { subscription.isEnded }

    func cancel() { subscription.cancel() }
}
