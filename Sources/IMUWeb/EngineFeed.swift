import IMUCalibration
import IMUDrivers
import IMUEngine

/// The daemon's engine as the dashboard's feed: its subscriptions, its JSON lines, and raw
/// samples as readings for the calibrations started from the page.
public final class EngineFeed: MotionFeed, @unchecked Sendable {
    public let engine: MotionEngine

    public init(engine: MotionEngine) { self.engine = engine }

    public var infoMembers: String {
        let device = engine.device
        return "\"chip\":\(JSONText.string(device.driver.model.rawValue)),\"board\":\(JSONText.string(device.board.name)),"
            + "\"bus\":\(JSONText.string(device.bus.name)),\"rate_hz\":\(JSONText.number(rateHz, .rateHz)),"
            + "\"magnetometer\":\(device.driver.capabilities.magnetometer)"
    }

    public var clockSeconds: Double { engine.device.clock.now }
    public var rateHz: Double { engine.outputRateHz > 0 ? engine.outputRateHz : engine.settings.rateHz }
    public var healthLine: String? { engine.health.jsonLine }

    public func subscribe(_ streams: Set<WebStream>, motionDivisor: Int, eventTypes: Set<String>?) -> any FeedSubscription {
        let engineStreams = Set(streams.compactMap(\.engineStream))
        return Subscription(engine.subscribe(engineStreams, capacity: 512, motionDivisor: motionDivisor, eventTypes: eventTypes, lines: true))
    }

    final class Subscription: FeedSubscription, @unchecked Sendable {
        let subscription: MotionSubscription
        init(_ subscription: MotionSubscription) { self.subscription = subscription }

        var ended: Bool { subscription.isEnded }
        func cancel() { subscription.cancel() }

        func next(timeoutSeconds: Double?) -> FeedItem? {
            guard let (output, line, lost) = subscription.nextLine(timeoutSeconds: timeoutSeconds) else { return nil }
            var reading: CalibrationInput?
            if case .sample(let s) = output {
                reading = CalibrationInput(timestamp: s.timestamp, accelerationG: s.acceleration, rotationRateRadiansPerSecond: s.rotationRate,
                                           magneticFieldMicrotesla: s.magneticField, temperatureCelsius: s.temperature)
            }
            return FeedItem(line: line, stream: WebStream(output.stream), lostBefore: lost, reading: reading)
        }
    }
}
