import IMUWire

/// How acquisition is going: what `health` subscribers get when it changes and once a second.
public struct EngineHealth: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Not running yet.
        case starting
        /// Reading at the full rate.
        case measuring
        /// Low power: the chip watches for motion, nothing is read until its INT edge.
        case idle
        /// Nobody needs data: the chip sleeps until the next subscription.
        case asleep
        /// The chip does not answer (or lost its configuration); retried every 50 ms.
        case outage
        /// The engine has stopped.
        case stopped
    }

    /// On the device's clock (s).
    public var timestamp = 0.0
    public var state = State.starting
    public var rateHz = 0.0
    /// Samples taken since the engine started.
    public var samples = 0
    /// Samples that never arrived: FIFO overflows and outages.
    public var lostSamples = 0
    /// Low power: seconds of idle time in which the chip, out or unconfigured, was not watching.
    public var unwatchedSeconds = 0.0
    /// Outages begun since the engine started.
    public var outages = 0
    /// The latest trouble, in words (nil once it is over).
    public var problem: String?
    /// Which parts are calibrated ("gyroscope, magnetometer", or "none").
    public var calibration = "none"
    /// The magnetometer's calibration accuracy (nil without a magnetometer).
    public var magnetometerAccuracy: String?

    public init() {}

    /// `{"type":"health","t":…,"state":"measuring",…}`.
    public var jsonLine: String {
        OutputLines.health(
            t: timestamp, state: state.rawValue, rateHz: rateHz, samples: samples, lostSamples: lostSamples,
            unwatchedSeconds: unwatchedSeconds, outages: outages, problem: problem, calibration: calibration,
            magneticAccuracy: magnetometerAccuracy)
    }

    /// Equal but for the time and the sample count: what makes a change worth telling.
    func sameCondition(as other: EngineHealth) -> Bool {
        var a = self, b = other
        a.timestamp = 0
        b.timestamp = 0
        a.samples = 0
        b.samples = 0
        return a == b
    }
}
