import IMUDrivers
import IMUEvents
import IMUFormats
import IMUMotion

/// What a subscriber can ask the engine for.
public enum MotionStream: String, CaseIterable, Sendable, Comparable {
    /// Raw samples in device axes (what `imu read` prints).
    case samples
    /// Calibrated, fused device motion (what `imu stream` prints).
    case motion
    /// The recognisers' events (what `imu events` prints).
    case events
    /// Acquisition health: outages, lost samples, calibration accuracy.
    case health

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// One bit per stream, for the checks the engine makes for every sample and output: a
    /// `Set`'s lookups hash the raw-value string each time.
    var bit: UInt8 {
        switch self {
        case .samples: 1
        case .motion: 2
        case .events: 4
        case .health: 8
        }
    }

    static func bits(_ streams: Set<MotionStream>) -> UInt8 {
        streams.reduce(0) { $0 | $1.bit }
    }
}

/// One output of the engine.
public enum MotionOutput: Sendable {
    case sample(MotionSample)
    case motion(DeviceMotion)
    case event(MotionEvent)
    case health(EngineHealth)

    public var stream: MotionStream {
        switch self {
        case .sample: .samples
        case .motion: .motion
        case .event: .events
        case .health: .health
        }
    }

    /// Exactly the `--format jsonl` line of `imu read` (samples), `imu stream` (motion) and
    /// `imu events` (events); health is `{"type":"health",…}` (see `EngineHealth.jsonLine`).
    public var jsonLine: String {
        switch self {
        case .sample(let sample): SampleFormatter(.jsonl).line(for: sample)
        case .motion(let motion): MotionFormatter(.jsonl).line(for: motion)
        case .event(let event): event.jsonLine
        case .health(let health): health.jsonLine
        }
    }
}
