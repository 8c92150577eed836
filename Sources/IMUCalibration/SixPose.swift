import IMUGeometry

/// The six resting poses of six-pose accelerometer calibration, named by the side of the
/// device that faces the floor. With Core Motion's sign (gravity points down), the axis that
/// points at the floor reads +1 g: front down → z = +1, lying face up (back down) → z = −1.
public enum SixPose: String, Sendable, CaseIterable, Hashable {
    case backDown = "back-down"
    case frontDown = "front-down"
    case bottomDown = "bottom-down"
    case topDown = "top-down"
    case leftEdgeDown = "left-edge-down"
    case rightEdgeDown = "right-edge-down"

    /// 0 = x, 1 = y, 2 = z.
    public var axis: Int {
        switch self {
        case .leftEdgeDown, .rightEdgeDown: return 0
        case .bottomDown, .topDown: return 1
        case .backDown, .frontDown: return 2
        }
    }

    /// What the axis reads in this pose, in g: +1 when its positive end faces the floor.
    public var sign: Double {
        switch self {
        case .rightEdgeDown, .topDown, .frontDown: return 1
        case .leftEdgeDown, .bottomDown, .backDown: return -1
        }
    }

    /// The ideal reading in this pose, g.
    public var expectedAccelerationG: Vector3 {
        var v = Vector3.zero
        v[axis] = sign
        return v
    }

    /// The pose whose ideal reading is nearest to `accelerationG`.
    public static func nearest(to accelerationG: Vector3) -> SixPose {
        var axis = 0
        for a in 1..<3 where abs(accelerationG[a]) > abs(accelerationG[axis]) { axis = a }
        let positive = accelerationG[axis] >= 0
        return allCases.first { $0.axis == axis && ($0.sign > 0) == positive }!
    }

    /// The pose in the words the instructions use ("face up", "upright"), for progress and
    /// refusals, so the prompt and what follows it speak one vocabulary (the raw values stay
    /// for JSON and files).
    public var name: String {
        switch self {
        case .backDown: return "face up"
        case .frontDown: return "face down"
        case .bottomDown: return "upright"
        case .topDown: return "upside down"
        case .leftEdgeDown: return "on its left edge"
        case .rightEdgeDown: return "on its right edge"
        }
    }

    /// What to tell the person holding the device (contains `name`).
    public var instruction: String {
        switch self {
        case .backDown: return "lay it flat, face up"
        case .frontDown: return "lay it flat, face down"
        case .bottomDown: return "stand it upright on its bottom edge"
        case .topDown: return "stand it upside down on its top edge"
        case .leftEdgeDown: return "stand it on its left edge"
        case .rightEdgeDown: return "stand it on its right edge"
        }
    }
}
