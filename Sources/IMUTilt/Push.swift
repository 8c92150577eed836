import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A push in the screen plane, as UIKit's push behaviour has it: an angle and a magnitude.
///
/// The screen's axes are the device's x and y seen from the front, with y *up* (the device's
/// top edge), so a push is measured the way `atan2(Δy, Δx)` measures it:
///
/// ```
///                screen y = device +y (top edge)
///                       ↑
///        angle π/2      │      a push at angle θ
///                       │    ↗
///      angle π  ────────┼───θ────→  screen x = device +x (right edge), angle 0
///                       │
///        angle −π/2     │      device z comes out of the screen, towards you
/// ```
///
/// On a screen whose y axis points down (UIKit's views, terminal rows) the same push has the
/// angle `angleWithYDown`.
public struct Push: Sendable, Equatable, CustomStringConvertible {
    /// Radians, counter-clockwise from screen x towards screen y (up), in (−π, π].
    public var angle: Double
    /// 0: no push; 1: an acceleration of `pointsPerSecondSquaredPerMagnitude` (100 points/s²).
    public var magnitude: Double

    /// UIKit's unit: a push of magnitude 1 accelerates an item by 100 points/s².
    public static let pointsPerSecondSquaredPerMagnitude = 100.0

    public static let none = Push(angle: 0, magnitude: 0)

    public init(angle: Double, magnitude: Double) {
        self.angle = angle
        self.magnitude = magnitude
    }

    /// The push along `vector` (screen axes, y up, in magnitude units): its angle is
    /// `atan2(vector.y, vector.x)`, its magnitude the vector's length.
    public init(vector: Vector2) {
        self.init(angle: Self.normalized(atan2(vector.y, vector.x)), magnitude: vector.length)
    }

    /// The push as a vector in screen axes (y up), in magnitude units.
    public var vector: Vector2 { Vector2(cos(angle), sin(angle)) * magnitude }

    /// The acceleration the push gives an item, points/s², screen axes (y up).
    public var accelerationPointsPerSecondSquared: Vector2 { vector * Self.pointsPerSecondSquaredPerMagnitude }

    /// The angle on a screen whose y axis points down (UIKit, terminal rows): clockwise from x.
    public var angleWithYDown: Double { Self.normalized(-angle) }

    /// `angle` in (−π, π] (atan2 gives −π for a −0 y).
    static func normalized(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if a <= -.pi { a += 2 * .pi } else if a > .pi { a -= 2 * .pi }
        return a
    }

    public var description: String {
        let degrees = angle * 180 / .pi
        return "push \((degrees * 10).rounded() / 10)° × \((magnitude * 1000).rounded() / 1000)"
    }
}
