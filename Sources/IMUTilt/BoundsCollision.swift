/// Bouncing off the bounds, one axis at a time, without gaining energy.
///
/// A step that carries the item past a wall puts it back on the wall and reverses its speed
/// along that axis. Where the push pushes the item into the wall, the speed it would have
/// gained past the wall is taken off first (½v′² = ½v² − a·overshoot): the energy of the
/// item, ½v² − a·x per unit mass, is then the same after the bounce as after the free step
/// (times `restitution`² for the kinetic part), so bouncing never adds energy, and an item
/// pushed against a wall comes to rest on it instead of jittering.
enum BoundsCollision {
    /// The position and velocity along one axis after a free step, with `acceleration` along
    /// it, kept within `low`…`high`.
    static func resolve(
        position: Double, velocity: Double, acceleration: Double, low: Double, high: Double, restitution: Double
    ) -> (position: Double, velocity: Double) {
        if position > high {
            let overshoot = position - high
            let speed = max(0, velocity * velocity - 2 * acceleration * overshoot).squareRoot()
            return (high, -restitution * speed)
        }
        if position < low {
            let overshoot = low - position
            let speed = max(0, velocity * velocity + 2 * acceleration * overshoot).squareRoot()
            return (low, restitution * speed)
        }
        return (position, velocity)
    }
}
