import IMUDrivers
import IMUEvents
import IMUGeometry
import IMUShareClient

/// What every front end needs of the engine: who it is, its clock and health, and queued
/// subscriptions that hand over each output with its JSON line. `EngineFeed` adapts the
/// engine; tests can drive a front end with a feed whose outputs they choose.
public protocol Feed: AnyObject, Sendable {
    var info: FeedInfo { get }
    /// The engine's clock now (the time base of the lines' `t`), seconds.
    var clockSeconds: Double { get }
    /// The engine's latest health line (`{"type":"health",…}`), nil before the first.
    var healthLine: String? { get }
    /// A bounded queue of the engine's outputs for one subscriber. When the queue is full the
    /// oldest outputs are dropped and counted; acquisition and other subscribers never wait.
    func subscribe(_ request: FeedRequest) -> any FeedSubscription
    /// Reads the chip's calibration file again and applies it from the next sample (after
    /// `imu calibrate` saved one through the daemon). A file that cannot be used is refused and
    /// the calibration in force kept.
    func reloadCalibration() throws(RequestError) -> CalibrationReloaded
}

extension Feed {
    public func reloadCalibration() throws(RequestError) -> CalibrationReloaded {
        throw RequestError("this server keeps no calibration to reload")
    }

    public var clockSeconds: Double { 0 }
    public var healthLine: String? { nil }
}

/// The calibration a reload put in force.
public struct CalibrationReloaded: Equatable, Sendable {
    /// The file read; nil when the chip has none (the daemon then runs uncalibrated).
    public var path: String?
    /// Which parts are calibrated, as health says it ("gyroscope, accelerometer", or "none").
    public var parts: String
    /// The magnetometer's accuracy (nil without a magnetometer).
    public var magnetometerAccuracy: String?

    public init(path: String?, parts: String, magnetometerAccuracy: String?) {
        self.path = path
        self.parts = parts
        self.magnetometerAccuracy = magnetometerAccuracy
    }
}

/// Who serves: what the hello lines tell a client.
public struct FeedInfo: Equatable, Sendable {
    public var chip: String
    public var board: String
    public var bus: String
    /// The chip's address on the bus (with chip, board and bus it names the calibration file).
    public var address: Int?
    public var rateHz: Double
    public var magnetometer: Bool
    /// The reference frame of the motion stream's attitude (`ReferenceFrame`'s raw value); nil
    /// when the feed does not say.
    public var referenceFrame: String?
    public var streams: [ShareStream]

    public init(
        chip: String, board: String, bus: String, address: Int? = nil, rateHz: Double, magnetometer: Bool,
        referenceFrame: String? = nil, streams: [ShareStream] = ShareStream.engineStreams
    ) {
        self.referenceFrame = referenceFrame
        self.chip = chip
        self.board = board
        self.bus = bus
        self.address = address
        self.rateHz = rateHz
        self.magnetometer = magnetometer
        self.streams = streams
    }
}

/// One subscription's wishes, in the engine's terms.
public struct FeedRequest: Equatable, Sendable {
    public var streams: Set<ShareStream>
    public var capacity: Int
    /// Every n-th device motion.
    public var motionDivisor: Int
    /// nil = every event type.
    public var eventTypes: Set<String>?

    public init(streams: Set<ShareStream>, capacity: Int = 1024, motionDivisor: Int = 1, eventTypes: Set<String>? = nil) {
        self.streams = streams
        self.capacity = capacity
        self.motionDivisor = motionDivisor
        self.eventTypes = eventTypes
    }
}

/// One output as a front end sees it: its stream, its JSON line (exactly the `--format jsonl`
/// line of `imu read` / `imu stream` / `imu events`, or health's object), and the typed parts
/// some front ends read (D-Bus: events, heading, gravity; the dashboard's calibrations: samples).
public struct FeedOutput: Sendable {
    public var stream: ShareStream
    public var jsonLine: String
    /// For events.
    public var event: MotionEvent?
    /// For device motion: the heading in degrees clockwise from magnetic north, nil when unknown.
    public var headingDegrees: Double?
    /// For device motion: gravity in device axes (g, Core Motion's sign: face up reads z = −1).
    public var gravity: Vector3?
    /// For raw samples: the sample (uncalibrated, device axes).
    public var sample: MotionSample?

    public init(stream: ShareStream, jsonLine: String, event: MotionEvent? = nil, headingDegrees: Double? = nil,
                gravity: Vector3? = nil, sample: MotionSample? = nil) {
        self.stream = stream
        self.jsonLine = jsonLine
        self.event = event
        self.headingDegrees = headingDegrees
        self.gravity = gravity
        self.sample = sample
    }
}

public protocol FeedSubscription: AnyObject, Sendable {
    /// Blocks until the next output or the timeout; nil on timeout, when cancelled, or when the
    /// engine has ended (`ended` tells which). `lostBefore`: outputs dropped since the previous
    /// delivery.
    func next(timeoutSeconds: Double?) -> (output: FeedOutput, lostBefore: Int)?
    /// Ends the subscription: a waiting `next` returns nil at once.
    func cancel()
    /// Cancelled, or the engine has ended.
    var ended: Bool { get }
}
