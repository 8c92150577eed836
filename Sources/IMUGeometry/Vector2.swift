/// A vector in a plane (a position or velocity on a screen, a push); which plane and which way
/// its axes point is said by the name of the property that holds it.
public struct Vector2: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Vector2(0, 0)

    public static func + (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x + b.x, a.y + b.y) }
    public static func - (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x - b.x, a.y - b.y) }
    public static prefix func - (a: Vector2) -> Vector2 { Vector2(-a.x, -a.y) }
    public static func * (s: Double, a: Vector2) -> Vector2 { Vector2(s * a.x, s * a.y) }
    public static func * (a: Vector2, s: Double) -> Vector2 { s * a }
    public static func / (a: Vector2, s: Double) -> Vector2 { Vector2(a.x / s, a.y / s) }
    public static func += (a: inout Vector2, b: Vector2) { a = a + b }

    public func dot(_ b: Vector2) -> Double { x * b.x + y * b.y }
    public var length: Double { dot(self).squareRoot() }

    public subscript(axis: Int) -> Double {
        get { axis == 0 ? x : y }
        set {
            if axis == 0 { x = newValue } else { y = newValue }
        }
    }

    public var description: String { "(\(x), \(y))" }
}
