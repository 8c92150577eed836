import IMUGeometry

/// How the 2D stepper moves an item: its fixed time step, the viscosity that damps it, how it
/// bounces off the bounds and when a drifting item comes to rest.
public struct PhysicsSettings: Sendable, Equatable {
    /// Seconds per step, whatever rate the sensor delivers at.
    public var timeStep: Double
    /// Per second: velocity decays as e^(−viscosity·t) (0: no damping).
    public var viscosityPerSecond: Double
    /// Share of the speed towards a wall kept after bouncing off it (1: elastic).
    public var restitution: Double
    /// Without a push, an item slower than this (points/s) stops: the friction that makes a
    /// ball on a level table stand still instead of creeping on for ever.
    public var restingSpeed: Double
    /// After a gap in the input (a sensor outage) at most this many seconds are caught up.
    public var maximumCatchUpSeconds: Double

    public init(
        timeStep: Double = 1.0 / 120, viscosityPerSecond: Double = 1, restitution: Double = 1,
        restingSpeed: Double = 1, maximumCatchUpSeconds: Double = 0.25
    ) {
        self.timeStep = timeStep
        self.viscosityPerSecond = viscosityPerSecond
        self.restitution = restitution
        self.restingSpeed = restingSpeed
        self.maximumCatchUpSeconds = maximumCatchUpSeconds
    }
}

/// The rectangle an item is kept in, points, screen axes (y up).
public struct PhysicsBounds: Sendable, Equatable {
    public var minimum: Vector2
    public var maximum: Vector2

    public init(minimum: Vector2, maximum: Vector2) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// From the origin to (width, height).
    public init(width: Double, height: Double) {
        self.init(minimum: .zero, maximum: Vector2(width, height))
    }

    public var center: Vector2 { (minimum + maximum) / 2 }

    public func contains(_ point: Vector2) -> Bool {
        point.x >= minimum.x && point.x <= maximum.x && point.y >= minimum.y && point.y <= maximum.y
    }
}

/// An item's position (points) and velocity (points/s), screen axes (y up).
public struct Body: Sendable, Equatable {
    public var position: Vector2
    public var velocity: Vector2

    public init(position: Vector2, velocity: Vector2 = .zero) {
        self.position = position
        self.velocity = velocity
    }
}
