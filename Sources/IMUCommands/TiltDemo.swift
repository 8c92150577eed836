import IMUDrivers
import IMUGeometry
import IMUMotion
import IMUTilt

/// What `imu demo tilt` runs on each sample: fusion (6D: gravity needs no compass), the push
/// from the fused gravity, and the ball's physics stepped to the sample's time.
struct TiltDemo {
    private var pipeline = DeviceMotionPipeline(
        filter: FixedFusionFilter(usesMagnetometer: false), frame: FrameConversion(frame: .xArbitraryZVertical)!)
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

    /// One calibrated sample (device axes). The ball stays put until the filter has an estimate.
    mutating func update(_ sample: MotionSample) {
        guard let motion = pipeline.update(sample) else { return }
        gravity = motion.gravity
        push = motion.push(tilt)
        stepper.advance(to: sample.timestamp, acceleration: push.accelerationPointsPerSecondSquared)
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
