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
/// Velocity is a leaky integral of sideways user acceleration, so slow drift and gravity leaks
/// fade; a tap (a spike with no swing before it) and a shake's smooth swings do not match. The
/// acceleration's resting offset (an uncalibrated accelerometer's bias shows in user
/// acceleration) is followed while the device is calm and taken out first, or it would add to
/// swings one way and take from the other.
public struct SlapRecognizer: Sendable, Equatable {
    public struct Parameters: Sendable, Equatable {
        /// A stop is sideways acceleration above this, against the motion (g).
        public var stopThresholdG = 2.0
        /// The swing must have reached this sideways speed (g·s; 0.05 g·s ≈ 0.5 m/s).
        public var minimumSwingSpeed = 0.05
        /// How fast the velocity estimate forgets (s).
        public var velocityTimeConstant = 0.3
        /// A stop is this many times stronger than the swing before it: a shake's swing back is
        /// about as strong as its swing, a hand stopping the device is much harder.
        public var stopToSwingRatio = 2.0
        /// How fast the memory of the swing's strength fades (s).
        public var swingPeakTimeConstant = 0.5
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
    /// The strongest recent acceleration along the velocity (g), fading.
    private var swingPeak = 0.0
    private var lastTime: Double?
    /// Sideways acceleration at rest (g).
    private var offset: Double?
    private var quietUntil = -Double.infinity

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// Feeds one sample of user acceleration (device axes, g); returns a slap when one ends.
    public mutating func update(userAcceleration a: Vector3, timestamp t: Double) -> SlapEvent? {
        let p = parameters
        let dt = lastTime.map { min(max(t - $0, 0), 0.1) } ?? 0
        lastTime = t
        let resting = offset ?? a.x
        let sideways = a.x - resting
        if abs(sideways) < p.calmBandG {
            offset = resting + sideways * min(1, dt / p.offsetTimeConstant)
        } else {
            offset = resting
        }
        defer {
            // Leaky integration, after the stop test so the stop itself does not cancel the swing.
            swingPeak *= max(0, 1 - dt / p.swingPeakTimeConstant)
            if sideways * velocity > 0 { swingPeak = max(swingPeak, abs(sideways)) }
            velocity += sideways * dt
            velocity -= velocity * min(1, dt / p.velocityTimeConstant)
        }
        guard t >= quietUntil else { return nil }
        let stopping = abs(sideways) >= max(p.stopThresholdG, p.stopToSwingRatio * swingPeak) && sideways * velocity < 0
        guard stopping, abs(velocity) >= p.minimumSwingSpeed else { return nil }
        let direction: SlapDirection = velocity > 0 ? .right : .left
        quietUntil = t + p.refractoryPeriod
        velocity = 0
        return SlapEvent(direction: direction, timestamp: t)
    }
}
