import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small 2D physics stepper for tilt demos: an item in a rectangle, accelerated by a push,
/// damped by viscosity, bouncing off the edges; stepped at a fixed time step whatever rate the
/// sensor delivers at (a 100 Hz and a 37 Hz sensor move the item alike).
///
/// ```swift
/// var stepper = PhysicsStepper(bounds: PhysicsBounds(width: 320, height: 240))
/// for motion in updates {
///     stepper.advance(to: motion.timestamp, acceleration: motion.push().accelerationPointsPerSecondSquared)
///     draw(stepper.body.position)
/// }
/// ```
public struct PhysicsStepper: Sendable, Equatable {
    public var settings: PhysicsSettings
    /// The rectangle the item is kept in; an item outside it (the bounds shrank) is put back
    /// at the next step.
    public var bounds: PhysicsBounds
    public var body: Body
    /// The time of the first `advance(to:)`: steps are counted from it.
    public private(set) var startTime: Double?
    /// Steps taken (and skipped after gaps) since `startTime`.
    public private(set) var steps = 0

    /// An item at rest at the centre of `bounds`, unless `body` says otherwise.
    public init(bounds: PhysicsBounds, body: Body? = nil, settings: PhysicsSettings = PhysicsSettings()) {
        self.settings = settings
        self.bounds = bounds
        self.body = body ?? Body(position: bounds.center)
    }

    /// Steps up to `time` (seconds, any clock that only goes forward), holding `acceleration`
    /// (points/s², screen axes, y up) for the steps that end by then. Returns the steps taken.
    /// Steps are counted from the first call's time, not summed, so rounding never adds or
    /// loses one.
    @discardableResult
    public mutating func advance(to time: Double, acceleration: Vector2) -> Int {
        guard let start = startTime else {
            startTime = time
            return 0
        }
        // A tiny allowance, so a time that is a whole number of steps counts as one.
        let due = Int(((time - start) / settings.timeStep + 1e-9).rounded(.down))
        guard due > steps else { return 0 }
        let catchUp = max(1, Int((settings.maximumCatchUpSeconds / settings.timeStep).rounded(.down)))
        let taken = min(due - steps, catchUp)
        for _ in 0..<taken {
            body = Self.step(body, acceleration: acceleration, settings: settings, bounds: bounds)
        }
        steps = due
        return taken
    }

    /// One fixed step, semi-implicit Euler: velocity damped then pushed, position moved by the
    /// new velocity, then kept within the bounds (see `BoundsCollision`). With a constant push
    /// the energy ½v² − a·x falls by ½(1 − d²)v² + ½a²·dt² per step (d = e^(−viscosity·dt)),
    /// so it never grows.
    public static func step(_ body: Body, acceleration: Vector2, settings: PhysicsSettings, bounds: PhysicsBounds) -> Body {
        let dt = settings.timeStep
        let damping = exp(-settings.viscosityPerSecond * dt)
        var velocity = body.velocity * damping + acceleration * dt
        if acceleration == .zero && velocity.length < settings.restingSpeed { velocity = .zero }
        // An item left outside by bounds that shrank starts from the nearest edge.
        var position = Vector2(
            min(max(body.position.x, bounds.minimum.x), bounds.maximum.x),
            min(max(body.position.y, bounds.minimum.y), bounds.maximum.y))
        position += velocity * dt
        for axis in 0..<2 {
            (position[axis], velocity[axis]) = BoundsCollision.resolve(
                position: position[axis], velocity: velocity[axis], acceleration: acceleration[axis],
                low: bounds.minimum[axis], high: bounds.maximum[axis], restitution: settings.restitution)
        }
        return Body(position: position, velocity: velocity)
    }
}
