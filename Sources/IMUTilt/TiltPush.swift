import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tilt to push: where a ball on the board's face would roll, as a `Push` in the screen plane.
///
/// Gravity in device axes (Core Motion's sign: it points down) has a part in the screen plane,
/// `(gravity.x, gravity.y)`, that points at the lower edge: the push goes that way. Right edge
/// down (gravity x > 0) pushes right, angle 0; top edge down (gravity y > 0) pushes up-screen,
/// angle π/2; left edge down, angle π; the edge towards you down, angle −π/2 (see `Push` for
/// the picture of the axes).
///
/// The magnitude is the share of gravity in the plane, sin(tilt): 0 lying level, 0.5 at 30°,
/// 1 on an edge (90°) — what a ball on a slope feels, g·sin(tilt). Below `deadZoneDegrees` the
/// push is 0 (a board on a table that is not quite level, or an uncalibrated accelerometer,
/// keeps still); above it the magnitude is rescaled so it still starts at 0 and still reaches 1
/// at 90°. It never exceeds `maximumMagnitude`. Past 90° (the board turned face down) the
/// share in the plane falls again.
///
/// ```swift
/// let push = TiltPush().push(gravity: motion.gravity)   // or motion.push()
/// item.acceleration = push.accelerationPointsPerSecondSquared
/// ```
public struct TiltPush: Sendable, Equatable {
    /// Tilts smaller than this (degrees from level) give no push.
    public var deadZoneDegrees: Double
    /// The largest magnitude given, whatever the tilt.
    public var maximumMagnitude: Double

    public init(deadZoneDegrees: Double = 3, maximumMagnitude: Double = 1) {
        self.deadZoneDegrees = deadZoneDegrees
        self.maximumMagnitude = maximumMagnitude
    }

    /// The push for `gravity` (device axes, any length; Core Motion's sign). No push when the
    /// vector has no direction (zero, or not finite).
    public func push(gravity: Vector3) -> Push {
        let length = gravity.length
        guard length > 0, length.isFinite else { return .none }
        let inPlane = Vector2(gravity.x, gravity.y) / length
        let share = inPlane.length
        let deadShare = sin(min(max(deadZoneDegrees, 0), 89.9) * .pi / 180)
        let direction = Push(vector: inPlane)
        guard share > deadShare else { return Push(angle: direction.angle, magnitude: 0) }
        let magnitude = min(maximumMagnitude, (share - deadShare) / (1 - deadShare))
        return Push(angle: direction.angle, magnitude: magnitude)
    }

    /// The board's tilt from level, degrees: 0 face up, 90 standing on an edge, 180 face down.
    public static func tiltDegrees(gravity: Vector3) -> Double {
        atan2(Vector2(gravity.x, gravity.y).length, -gravity.z) * 180 / .pi
    }
}
