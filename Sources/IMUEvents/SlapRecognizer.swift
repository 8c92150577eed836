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
    /// When the stop was felt (s): its first sample over the stop's thresholds. The recogniser
    /// returns the event a little later, when it has seen the stop end (see `SlapRecognizer`).
    public var timestamp: Double

    public init(direction: SlapDirection, timestamp: Double) {
        self.direction = direction
        self.timestamp = timestamp
    }
}

/// Recognises a slap into an open hand: the device is swung sideways (x) from rest and stopped
/// hard. The swing builds up sideways velocity; the stop is a short, strong acceleration against
/// it. The slap is reported once, when the stop has ended (the seed waits half a second), with
/// the time the stop was felt.
///
/// Signs, from first principles: an accelerometer measures specific force f = a − g⃗ (a the
/// kinematic acceleration, g⃗ gravity, pointing down); Core Motion reports −f/g, so its gravity
/// points down and its user acceleration is −a/g. A swing to the right (+x) therefore reads
/// *negative* x user acceleration and its stop positive, and velocity is the integral of
/// −(user acceleration). (Seed 001's left slap reads positive x during the swing.)
///
/// Velocity is a leaky integral; a tap (a spike with no swing before it) and a shake do not
/// match. A shake is a periodic back-and-forth: each swing back is about as strong as the swing
/// before it, where a hand stopping the device is much harder than the arm that swung it; and
/// each swing starts by reversing the previous one, at its speed, where a slap's swing starts
/// from rest. The second test is what keeps a shake met part way through from being a slap: a
/// live stream's recognisers first see a shake when the fusion has warmed up, perhaps in the
/// middle of a swing, whose first swing back then looks harder than the part of the swing seen.
/// Until the recogniser has seen the device at rest or a swing reverse, it does not know what
/// came before, and a stop is not a slap.
///
/// Rest is sideways acceleration staying within a narrow band for a tenth of a second (a shake
/// sweeps through nought far faster). At rest the device is not moving, so the velocity
/// estimate is set to nought (an offset not yet learnt would otherwise drift it into a "swing"
/// that a shake's first push then "stops"), and the resting offset (an uncalibrated
/// accelerometer's bias shows in user acceleration: 0.15 g in a twin run) is learnt there and
/// taken out first (a high-pass), or it would add to swings one way and take from the other.
/// It starts at nought, not at the first sample, which may be taken in the middle of a swing.
///
/// A stop is judged when it ends. A hand's catch is a short pulse (tens of milliseconds) that
/// takes the swing's speed away and leaves the device at rest; a shake's reversal lasts as long
/// as its swing and carries on into a swing the other way. The tests above cannot tell them
/// apart when a shake grows in (a hand starting a shake swings weaker first): its first swing
/// starts from rest and its first reversal is much harder than it. So a stop that passes them
/// is held until its push has fallen to half its peak, and is a slap if it shows either sign of
/// a catch: the device's speed is still about nought (it has not swung back past a fraction of
/// the swing's speed), or the stop, from the swing's top speed, took at most half the swing's
/// time. A reversal shows neither. Either alone can fail a real catch once sampled: at 50 Hz a
/// catch is one or two samples, so its duration is known only to a sample; a late read that
/// returns the same sample twice (a live clock's) counts the catch's push twice and overshoots
/// the speed. The speed is a second estimate that forgets slowly: the leaky one has lost a
/// quarter of a 0.25 s swing by its stop, so a clean catch would leave it running backwards.
/// The event is returned when the stop has ended — at most the rest of the catch and one sample
/// after the time it carries (the stop's first sample) — so a shake's `began` that comes during
/// the hold waits for it (`EventDetector`).
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
        /// The swing must start from rest: the device's top speed the other way just before it
        /// (a backswing, or a shake's previous swing, which is as fast) must be below this
        /// fraction of the swing's.
        public var backswingRatio = 0.5
        /// Rest: sideways acceleration stays within this of where it was and of the offset (g;
        /// the twin's noise is 0.01 g; a light slap's gentlest swing, 0.16 g at its peak, leaves
        /// it in 40 ms)
        public var restBandG = 0.06
        /// for this long (s): a shake sweeps through nought in milliseconds (its acceleration
        /// changes by 0.06 g in 5 ms at 1.5 Hz, ±1.2 g).
        public var restSeconds = 0.1
        /// Steady further than `restBandG` from the offset learnt so far is rest only after this
        /// long (s): a gentle swing's crest is steady for a tenth of a second, but no swing
        /// pushes steadily for half a second.
        public var settleSeconds = 0.5
        /// At rest the offset follows the acceleration with this time constant (s).
        public var offsetTimeConstant = 0.2
        /// A held stop has ended when its push has fallen below this fraction of its peak: a
        /// catch is a single pulse, over when it has fallen to half (a shake's reversal is still
        /// rising then, its peak a quarter period after the swing's top speed).
        public var stopEndFraction = 0.5
        /// A held stop has not stopped the device once the speed the other way passes this
        /// fraction of the swing's top speed: a catch leaves the device at rest; a reversal
        /// carries on to the swing's speed the other way (twice it when the shake grows in).
        public var swingBackRatio = 0.3
        /// Sampling's share of that: a catch lasts one or two samples at 50 Hz, so the speed
        /// estimate may overshoot nought by this many sample intervals of the stop's peak push.
        public var swingBackSlackSamples = 0.5
        /// How slowly the speed a held stop is judged on forgets (s): it loses under a tenth
        /// of a slap's swing (≤ 0.25 s), and it is reset at rest, so no offset drifts it far.
        public var heldSpeedTimeConstant = 2.0
        /// A held stop is brief when it has lasted at most this fraction of the swing's time
        /// (both from the swing's top speed, the last sample pushing along it): a hand stops the
        /// device in at most half the swing's time; a reversal takes about as long as the swing.
        public var briefStopToSwingTime = 0.5

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
    private var offset = 0.0
    private var quietUntil = -Double.infinity
    /// The top speed of the swing under way (g·s).
    private var swingTopSpeed = 0.0
    /// The top speed of the swing before it, the other way (g·s); infinite while unknown.
    private var backswingSpeed = Double.infinity
    /// The stretch of steady acceleration under way: when it began and where (g).
    private struct Steady: Sendable, Equatable {
        var time: Double
        var level: Double
    }
    private var steadySince: Steady?
    /// Sideways velocity estimate that forgets slowly (g·s), and the top speed of the swing under
    /// way in it: what a held stop is judged on.
    private var slowVelocity = 0.0
    private var slowSwingTopSpeed = 0.0
    /// The last sample that pushed along the velocity (s): the swing's top speed is there.
    private var lastPushAlong = -Double.infinity
    /// A stop that passed the tests, held until it ends or turns out to be a reversal.
    private struct HeldStop: Sendable, Equatable {
        /// +1: the device was moving toward +x.
        var sign: Double
        /// When it was felt (s): the slap's time.
        var time: Double
        /// The swing's top speed in the slow estimate (g·s).
        var swingSpeed: Double
        /// When the swing reached its top speed (s), and how long it took to (s).
        var swingTop: Double
        var swingSeconds: Double
        /// The strongest push against the motion so far (g).
        var peakG: Double
    }
    private var held: HeldStop?

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    /// A stop is being held: the next samples tell whether it was a slap.
    public var isHoldingStop: Bool { held != nil }

    /// Feeds one sample of user acceleration (device axes, g, Core Motion's sign); returns a slap
    /// when its stop has ended (the event carries the time the stop was felt).
    public mutating func update(userAcceleration a: Vector3, timestamp t: Double) -> SlapEvent? {
        let p = parameters
        let dt = lastTime.map { min(max(t - $0, 0), 0.1) } ?? 0
        lastTime = t
        if let steady = steadySince, abs(a.x - steady.level) < p.restBandG {
            // Steady near the offset is rest; a steady push (a swing can be one) is not, unless it
            // lasts longer than any swing: then it is a new resting level.
            let near = abs(steady.level - offset) < p.restBandG
            if t - steady.time >= (near ? p.restSeconds : p.settleSeconds) {
                offset += (a.x - offset) * min(1, dt / p.offsetTimeConstant)
                velocity = 0
                slowVelocity = 0
                backswingSpeed = 0
                swingTopSpeed = 0
            }
        } else {
            steadySince = Steady(time: t, level: a.x)
        }
        // Kinematic acceleration toward +x (g): user acceleration is −a/g.
        let pushed = -(a.x - offset)
        guard t >= quietUntil else {
            // The stop's own end and ringing build no swing.
            velocity = 0
            slowVelocity = 0
            swingPeak = 0
            swingTopSpeed = 0
            backswingSpeed = 0
            return nil
        }
        defer {
            // Leaky integration, after the stop test so the stop itself does not cancel the swing.
            swingPeak *= max(0, 1 - dt / p.swingPeakTimeConstant)
            if pushed * velocity > 0 {
                swingPeak = max(swingPeak, abs(pushed))
                lastPushAlong = t
            }
            let faster = velocity + pushed * dt
            if faster * velocity <= 0 {
                swingStart = t
                // A reversal: the swing that ends is the next one's backswing. (From nought, at
                // rest, at the start or after a stop, there was none to measure.)
                if velocity != 0 { backswingSpeed = swingTopSpeed }
                swingTopSpeed = 0
                slowSwingTopSpeed = 0
            }
            velocity = faster - faster * min(1, dt / p.velocityTimeConstant)
            swingTopSpeed = max(swingTopSpeed, abs(velocity))
            let slowFaster = slowVelocity + pushed * dt
            slowVelocity = slowFaster - slowFaster * min(1, dt / p.heldSpeedTimeConstant)
            slowSwingTopSpeed = max(slowSwingTopSpeed, abs(slowVelocity))
        }
        if var stop = held {
            // Speed the other way, this sample's push included (the integration above runs after).
            let against = -pushed * stop.sign
            let back = -(slowVelocity + pushed * dt) * stop.sign
            let stopped = back <= p.swingBackRatio * stop.swingSpeed + p.swingBackSlackSamples * stop.peakG * dt
            let brief = t - stop.swingTop <= p.briefStopToSwingTime * stop.swingSeconds
            guard stopped || brief else {
                // Swinging back, and for longer than a catch: a reversal.
                held = nil
                return nil
            }
            guard against < p.stopEndFraction * stop.peakG else {
                stop.peakG = max(stop.peakG, against)
                held = stop
                return nil
            }
            held = nil
            quietUntil = t + p.refractoryPeriod
            velocity = 0
            slowVelocity = 0
            swingPeak = 0
            return SlapEvent(direction: stop.sign > 0 ? .right : .left, timestamp: stop.time)
        }
        let stopping = abs(pushed) >= max(p.stopThresholdG, p.stopToSwingRatio * swingPeak) && pushed * velocity < 0
        guard stopping, abs(velocity) >= p.minimumSwingSpeed, t - swingStart >= p.minimumSwingSeconds,
              backswingSpeed <= p.backswingRatio * swingTopSpeed else { return nil }
        held = HeldStop(
            sign: velocity > 0 ? 1 : -1, time: t, swingSpeed: slowSwingTopSpeed, swingTop: lastPushAlong,
            swingSeconds: lastPushAlong - swingStart, peakG: abs(pushed))
        return nil
    }
}
