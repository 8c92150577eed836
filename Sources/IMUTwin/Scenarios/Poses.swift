import IMUGeometry

/// The named resting poses, as attitudes (device → ENU). Face up with the top pointing north is
/// the identity; "upright" is portrait, top up, screen facing south (towards a user looking
/// north); the landscape poses are UIKit's: landscape right = turned 90° clockwise (seen from
/// the front) from upright, so its right edge points down and Core Motion reads x = +1 g.
public enum Pose: String, Sendable, CaseIterable {
    case faceUp = "face-up"
    case faceDown = "face-down"
    case upright
    case upsideDown = "upside-down"
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"
    case onBack = "on-back"

    public var attitude: Quaternion {
        let x = Vector3(1, 0, 0), y = Vector3(0, 1, 0), z = Vector3(0, 0, 1)
        let upright = Quaternion(axis: x, angle: .pi / 2)
        switch self {
        case .faceUp: return .identity
        // Turned over about its own y axis: top still north, screen down.
        case .faceDown: return Quaternion(axis: y, angle: .pi)
        case .upright: return upright
        // Device-frame turns are applied on the right: turn the device in its own plane.
        case .upsideDown: return upright * Quaternion(axis: z, angle: .pi)
        case .landscapeRight: return upright * Quaternion(axis: z, angle: -.pi / 2)
        case .landscapeLeft: return upright * Quaternion(axis: z, angle: .pi / 2)
        // Lying on its back (screen up) with the top pointing west: yaw +90° in a north frame.
        case .onBack: return Quaternion(axis: z, angle: .pi / 2)
        }
    }

    /// Core Motion's gravity in device axes for this pose (g).
    public var gravityG: Vector3 {
        attitude.conjugate.rotate(gravityENUG)
    }

    public var summary: String {
        switch self {
        case .faceUp: return "lying face up, top north (gravity z = -1)"
        case .faceDown: return "lying face down (gravity z = +1)"
        case .upright: return "portrait, top up (gravity y = -1)"
        case .upsideDown: return "portrait, top down (gravity y = +1)"
        case .landscapeLeft: return "turned 90° counter-clockwise from upright (gravity x = -1)"
        case .landscapeRight: return "turned 90° clockwise from upright (gravity x = +1)"
        case .onBack: return "lying on its back, top west (gravity z = -1, yaw +90°)"
        }
    }
}

/// A device held still in one pose.
public struct PoseScenario: MotionScenario {
    public let pose: Pose
    public let name: String

    public init(_ pose: Pose, name: String? = nil) {
        self.pose = pose
        self.name = name ?? pose.rawValue
    }

    public var summary: String { pose.summary }

    public func truth(at t: Double) -> MotionTruth {
        MotionTruth(attitude: pose.attitude)
    }
}
