/// What the dashboard needs from the daemon's engine: queued subscriptions that hand over the
/// engine's JSON lines (exactly the `--format jsonl` lines, and health's own object), and the
/// facts the hello line and the status endpoint tell. The daemon passes its engine through
/// this (see `EngineFeed`), tests can pass any engine.
public protocol MotionFeed: AnyObject, Sendable {
    /// Chip, board, bus, rate and whether there is a magnetometer, as JSON members
    /// (`"chip":"LSM9DS1","board":"sense-hat",…`) for the hello line and /api/status.
    var infoMembers: String { get }
    /// The engine's clock now (the time base of the lines' `t`), seconds.
    var clockSeconds: Double { get }
    /// A bounded subscription; `motionDivisor` n delivers every n-th device motion.
    func subscribe(_ streams: Set<WebStream>, motionDivisor: Int, eventTypes: Set<String>?) -> any FeedSubscription
    /// The engine's rate, device motions a second.
    var rateHz: Double { get }
    /// The engine's latest health object (`{"type":"health",…}`), nil before the first.
    var healthLine: String? { get }
}

/// One subscriber's queue of lines.
public protocol FeedSubscription: AnyObject, Sendable {
    /// Blocks until the next line or the timeout; nil when the feed ended or was cancelled (or
    /// on timeout: then `ended` tells which). `lostBefore`: lines dropped since the last delivery.
    func next(timeoutSeconds: Double?) -> FeedItem?
    func cancel()
    var ended: Bool { get }
}

/// One output of the engine as the dashboard takes it.
public struct FeedItem: Sendable {
    /// The JSON line (`--format jsonl`'s, or health's object).
    public var line: String
    public var stream: WebStream
    /// Outputs dropped for this subscriber since the previous delivery.
    public var lostBefore: Int
    /// For a raw sample: the reading, for calibrations started from the page.
    public var reading: CalibrationInput?

    public init(line: String, stream: WebStream, lostBefore: Int = 0, reading: CalibrationInput? = nil) {
        self.line = line
        self.stream = stream
        self.lostBefore = lostBefore
        self.reading = reading
    }
}
