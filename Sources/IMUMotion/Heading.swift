import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which device edge the heading is the direction of, like Core Location's `headingOrientation`.
public enum HeadingOrientation: String, Sendable, Equatable, CaseIterable {
    /// The top edge (+y): a phone held flat, or a hat with the header edge forward.
    case portrait
    /// The bottom edge (−y).
    case portraitUpsideDown
    /// The left edge (−x).
    case landscapeLeft
    /// The right edge (+x).
    case landscapeRight
    /// The back (−z), like a camera: the heading of a device held upright.
    case faceUp
    /// The front (+z).
    case faceDown

    /// The device axis whose horizontal direction is the heading.
    var deviceAxis: Vector3 {
        switch self {
        case .portrait: Vector3(0, 1, 0)
        case .portraitUpsideDown: Vector3(0, -1, 0)
        case .landscapeLeft: Vector3(-1, 0, 0)
        case .landscapeRight: Vector3(1, 0, 0)
        case .faceUp: Vector3(0, 0, -1)
        case .faceDown: Vector3(0, 0, 1)
        }
    }
}

public enum Heading {
    /// Degrees clockwise from the frame's north in [0, 360): where `orientation`'s device axis
    /// points, projected on the horizontal. nil when that axis is within `minimumTilt` of vertical
    /// (there is no direction to report; choose another orientation, e.g. `.faceUp` for a device
    /// held upright).
    public static func degrees(
        of attitude: Quaternion, orientation: HeadingOrientation = .portrait, minimumHorizontal: Double = 0.05
    ) -> Double? {
        let axis = attitude.rotate(orientation.deviceAxis)  // ENU: x east, y north
        guard (axis.x * axis.x + axis.y * axis.y).squareRoot() >= minimumHorizontal else { return nil }
        var heading = atan2(axis.x, axis.y) * 180 / .pi
        if heading < 0 { heading += 360 }
        return heading >= 360 ? heading - 360 : heading
    }

    /// The true heading from a magnetic one: add the declination (east positive), wrapped to
    /// [0, 360).
    public static func trueHeading(magnetic: Double, declinationDegrees: Double) -> Double {
        var heading = (magnetic + declinationDegrees).truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        return heading
    }
}

/// Reports a heading only when it has changed by at least `minimumChangeDegrees` since the last
/// report, like Core Location's `headingFilter` (0: every change).
public struct HeadingFilter: Sendable, Equatable {
    public var minimumChangeDegrees: Double
    private var lastReported: Double?

    public init(minimumChangeDegrees: Double) {
        self.minimumChangeDegrees = minimumChangeDegrees
    }

    /// `heading` if it should be reported, else nil. The change is measured the short way round
    /// (359° → 1° is a change of 2°).
    public mutating func filter(_ heading: Double) -> Double? {
        if let last = lastReported, minimumChangeDegrees > 0 {
            var change = abs(heading - last).truncatingRemainder(dividingBy: 360)
            if change > 180 { change = 360 - change }
            guard change >= minimumChangeDegrees else { return nil }
        }
        lastReported = heading
        return heading
    }
}
