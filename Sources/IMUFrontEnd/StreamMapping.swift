import IMUEngine
import IMUShareClient

/// The front ends' streams and the engine's, mapped by case (no raw-value round trip, no force
/// unwrap): the engine's four are the front ends' first four; rules and calibration are the
/// daemon's own.
extension ShareStream {
    public init(_ stream: MotionStream) {
        switch stream {
        case .samples: self = .samples
        case .motion: self = .motion
        case .events: self = .events
        case .health: self = .health
        }
    }

    /// The engine's stream of this name; nil for the daemon's own (rules, calibration).
    public var engineStream: MotionStream? {
        switch self {
        case .samples: .samples
        case .motion: .motion
        case .events: .events
        case .health: .health
        case .rules, .calibration: nil
        }
    }
}
