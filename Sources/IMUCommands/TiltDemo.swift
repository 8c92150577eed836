import IMUDrivers
import IMUGeometry
import IMUMotion
import IMUTilt
import IMUDevices
import IMUEngine
import IMUFormats

/// What `imu demo tilt` does with each device motion (the engine's, 6D: gravity needs no
/// compass): the push from the fused gravity, and the ball's physics stepped to its time.
struct TiltDemo {
    /// The frame the demo asks the engine for: no magnetometer needed.
    static let frame = FrameConversion(frame: .xArbitraryZVertical)!

    let tilt: TiltPush
    var stepper: PhysicsStepper
    /// The latest push; none while the filter warms up.
    private(set) var push = Push.none
    /// The latest fused gravity (device axes, g).
    private(set) var gravity: Vector3?

    init(bounds: PhysicsBounds, tilt: TiltPush = TiltPush(), physics: PhysicsSettings = PhysicsSettings()) {
        self.tilt = tilt
        stepper = PhysicsStepper(bounds: bounds, settings: physics)
    }

    var ball: Body { stepper.body }

    /// One device motion (the ball stays put until the filter has an estimate).
    mutating func update(_ motion: DeviceMotion) {
        gravity = motion.gravity
        push = motion.push(tilt)
        stepper.advance(to: motion.timestamp, acceleration: push.accelerationPointsPerSecondSquared)
    }

    /// New bounds (the terminal was resized): the ball keeps its place relative to them.
    mutating func resize(to bounds: PhysicsBounds) {
        let old = stepper.bounds
        guard bounds != old else { return }
        func scaled(_ axis: Int) -> Double {
            let span = old.maximum[axis] - old.minimum[axis]
            let share = span > 0 ? (stepper.body.position[axis] - old.minimum[axis]) / span : 0.5
            return bounds.minimum[axis] + share * (bounds.maximum[axis] - bounds.minimum[axis])
        }
        stepper.body.position = Vector2(scaled(0), scaled(1))
        stepper.bounds = bounds
    }
}
