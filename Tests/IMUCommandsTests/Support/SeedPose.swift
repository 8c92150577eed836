import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The poses of the seed readings (the acceptance), with the acceleration Core Motion
/// reads in each: gravity pointing down, in device axes.
enum SeedPose: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// Held upright (portrait, top up).
    case upright
    /// Turned 90° clockwise from upright.
    case landscapeRight = "landscape-right"
    /// Upside down.
    case upsideDown = "upside-down"
    /// 90° more: turned 90° counter-clockwise from upright.
    case landscapeLeft = "landscape-left"
    /// Tilted back onto its back: lying screen up.
    case onBack = "on-back"
    /// Lying screen down.
    case faceDown = "face-down"

    /// The `imu read --sim` scenario that holds this pose.
    var scenario: String { rawValue }

    var acceleration: Acceleration {
        switch self {
        case .upright: Acceleration(0, -1, 0)
        case .landscapeRight: Acceleration(1, 0, 0)
        case .upsideDown: Acceleration(0, 1, 0)
        case .landscapeLeft: Acceleration(-1, 0, 0)
        case .onBack: Acceleration(0, 0, -1)
        case .faceDown: Acceleration(0, 0, 1)
        }
    }

    /// The seeds' acceptance tolerance on each axis (g).
    static let tolerance = 0.03

    var testDescription: String { "\(rawValue) \(acceleration)" }
}
