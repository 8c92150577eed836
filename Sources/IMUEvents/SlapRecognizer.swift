import IMUGeometry

/// Which way the device was moving when it was stopped.
public enum SlapDirection: String, Sendable, Equatable {
    /// Toward the device's −x edge.
    case left
    /// Toward the device's +x edge.
    case right
}

public struct SlapEvent: Sendable, Equatable {
    public var direction: SlapDirection
    /// When the stop was felt (s).
    public var timestamp: Double

    public init(direction: SlapDirection, timestamp: Double) {
        self.direction = direction
        self.timestamp = timestamp
    }
}

/// Recognises a slap into an open hand: the device is swung sideways (x) and stopped hard. The
/// swing builds up sideways velocity; the stop is a short, strong acceleration against it. The
/// slap is reported at the stop, at once (the seed waits half a second), and only once.
///
/// Signs, from first principles: an accelerometer measures specific force f = a − g⃗ (a the
/// kinematic acceleration, g⃗ gravity, pointing down); Core Motion reports −f/g, so its gravity
/// points down and its user acceleration is −a/g. A swing to the right (+x) therefore reads
/// *negative* x user acceleration and its stop positive, and velocity is the integral of
/// −(user acceleration). (Seed 001's left slap reads positive x during the swing.)
///
/// Velocity is a leaky integral, so slow drift and gravity leaks fade; a tap (a spike with no
/// swing before it) and a shake's smooth swings do not match: a shake's swing back is about as
/// strong as its swing, a hand stopping the device is much harder than the arm that swung it.
/// The acceleration's resting offset (an uncalibrated accelerometer's bias shows in user
/// acceleration) is followed while the device is calm and taken out first (a high-pass), or it
/// would add to swings one way and take from the other.
public struct SlapRecognizer: Sendable, Equatable {
    public struct Parameters: Sendable, Equatable {
        /// A stop is sideways acceleration above this, against the motion (g). The seed's recipe
        /// thresholds its high-passed acceleration at 1.0 g; its slaps peak from 1.1 g.
        public var stopThresholdG = 1.0
        /// The swing must have reached this sideways speed (g·s; 0.008 g·s ≈ 0.08 m/s): a light
        /// slap (stopped in 30 ms at 1.3 g) is 0.025 g·s, of which a long gentle swing keeps
        /// about half in the leaky estimate.
        public var minimumSwingSpeed = 0.008
        /// The swing must have lasted this long (s, since the velocity estimate last changed
        /// sign): a tap's ringing swings for a few milliseconds, a shake's swing back comes a
        /// quarter period after the velocity turned (42 ms at 6 Hz), a slap's swing lasts from 0.08 s.
        public var minimumSwingSeconds = 0.06
        /// How fast the velocity estimate forgets (s).
        public var velocityTimeConstant = 0.5
        /// A stop is this many times stronger than the swing before it: a shake's swing back is
        /// about as strong as its swing (and the swing's memory has faded a little by then), a
        /// hand stopping the device in at most half the swing's time is twice as hard or more
        /// (less once sampled: at 50 Hz a 30 ms stop is caught off its peak).
        public var stopToSwingRatio = 1.4
        /// How fast the memory of the swing's strength fades (s).
        public var swingPeakTimeConstant = 1.5
        /// After a slap, the stop's own ringing is ignored this long (s).
        public var refractoryPeriod = 0.3
        /// The resting offset is followed while sideways acceleration stays this close to it (g),
        public var calmBandG = 0.15
        /// with this time constant (s).
        public var offsetTimeConstant = 1.0

        public init() {}
    }

    public let parameters: Parameters
    /// Sideways velocity estimate (g·s), positive toward +x.
    private var velocity = 0.0
    /// The strongest recent kinematic acceleration along the velocity (g), fading.
    private var swingPeak = 0.0
    private var lastTime: Double?
    /// When the velocity estimate last changed sign (s).
    private var swingStart = -Double.infinity
    /// Sideways user acceleration at rest (g).
    private var offset: Double?
    private var quietUntil = -Double.infinity

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// Feeds one sample of user acceleration (device axes, g, Core Motion's sign); returns a slap
    /// when one ends.
    public mutating func update(userAcceleration a: Vector3, timestamp t: Double) -> SlapEvent? {
        let p = parameters
        let dt = lastTime.map { min(max(t - $0, 0), 0.1) } ?? 0
        lastTime = t
        let resting = offset ?? a.x
        let highPassed = a.x - resting
        if abs(highPassed) < p.calmBandG {
            offset = resting + highPassed * min(1, dt / p.offsetTimeConstant)
        } else {
            offset = resting
        }
        // Kinematic acceleration toward +x (g): user acceleration is −a/g.
        let pushed = -highPassed
        guard t >= quietUntil else {
            // The stop's own end and ringing build no swing.
            velocity = 0
            swingPeak = 0
            return nil
        }
        defer {
            // Leaky integration, after the stop test so the stop itself does not cancel the swing.
            swingPeak *= max(0, 1 - dt / p.swingPeakTimeConstant)
            if pushed * velocity > 0 { swingPeak = max(swingPeak, abs(pushed)) }
            let faster = velocity + pushed * dt
            if faster * velocity <= 0 { swingStart = t }
            velocity = faster - faster * min(1, dt / p.velocityTimeConstant)
        }
        let stopping = abs(pushed) >= max(p.stopThresholdG, p.stopToSwingRatio * swingPeak) && pushed * velocity < 0
        guard stopping, abs(velocity) >= p.minimumSwingSpeed, t - swingStart >= p.minimumSwingSeconds else { return nil }
        let direction: SlapDirection = velocity > 0 ? .right : .left
        quietUntil = t + p.refractoryPeriod
        velocity = 0
        swingPeak = 0
        return SlapEvent(direction: direction, timestamp: t)
    }
}
