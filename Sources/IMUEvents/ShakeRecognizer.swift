import IMUGeometry

/// A shake's phases with UIKit's meanings (`motionBegan`, `motionEnded`, `motionCancelled`).
public enum ShakeEvent: Sendable, Equatable {
    /// A shake has started (enough quick back-and-forth swings).
    case began(timestamp: Double)
    /// The swings stopped and it was a shake.
    case ended(timestamp: Double)
    /// It lasted too long to be a shake, or stopped before it was one.
    case cancelled(timestamp: Double)
}

/// Recognises shakes in user acceleration (gravity removed, device axes, g): strong swings that
/// reverse direction at a hand's pace. A single tap or bump rings back within a few
/// milliseconds, too fast to count as a swing; tilting, turning and walking stay below the
/// swing threshold.
///
/// A shake begins at its first reversal once the swing back has lasted `minimumSwingSeconds`
/// (so it is reported a quarter of a period or so after the hand starts, not after several
/// swings). It ends, after `quietToEnd` without a strong swing, as `ended` when it reversed at
/// least `reversalsForShake` times, else as `cancelled` (one back-and-forth is a move, not a
/// shake); it is `cancelled` when it goes on past `maximumDuration`, and then nothing new
/// begins until the motion stops.
public struct ShakeRecognizer: Sendable, Equatable {
    public struct Parameters: Sendable, Equatable {
        /// A swing is user acceleration above this, in g.
        public var swingThresholdG = 0.8
        /// Swings that begin closer together than this are a tap's ringing, not a hand (s).
        public var minimumHalfPeriod = 0.06
        /// A swing back that comes longer than this after the last strong one is a separate movement (s).
        public var maximumHalfPeriod = 0.5
        /// The swing back must stay strong this long before the shake begins (s): a hard stop
        /// (a slap, a knock) is shorter.
        public var minimumSwingSeconds = 0.02
        /// Reversals that make it a shake by the time it stops.
        public var reversalsForShake = 2
        /// Quiet time after the last swing that ends a shake (s).
        public var quietToEnd = 0.3
        /// A shake longer than this is cancelled (s), as UIKit cancels a motion that goes on.
        public var maximumDuration = 5.0

        public init() {}
    }

    public let parameters: Parameters
    /// The swing under way: its direction, when it started and when it was last strong.
    private struct Swing: Sendable, Equatable {
        var direction: Vector3
        var start: Double
        var time: Double
    }

    private var lastSwing: Swing?
    private var reversals = 0
    private var began: Double?
    /// The last time user acceleration was above the swing threshold.
    private var lastStrong: Double?
    /// After a cancel: ignore the motion until it stops.
    private var settling = false

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    public var isShaking: Bool { began != nil }

    /// Feeds one sample; returns an event when a phase changes.
    public mutating func update(userAcceleration a: Vector3, timestamp t: Double) -> ShakeEvent? {
        let p = parameters
        if let start = began, t - start > p.maximumDuration {
            forgetSwings()
            settling = true
            return .cancelled(timestamp: t)
        }
        let magnitude = a.length
        if magnitude >= p.swingThresholdG {
            lastStrong = t
            if settling { return nil }
            swing(a / magnitude, at: t)
            // (1 µs of slack: samples on a 10 ms grid are 20 ms apart even when rounding says 19.999…)
            if began == nil, reversals >= 1, let swing = lastSwing, swing.time - swing.start >= p.minimumSwingSeconds - 1e-6 {
                began = t
                return .began(timestamp: t)
            }
            return nil
        }
        guard let last = lastStrong, t - last > p.quietToEnd else { return nil }
        let wasShaking = began != nil, wasShake = reversals >= p.reversalsForShake
        forgetSwings()
        lastStrong = nil
        settling = false
        guard wasShaking else { return nil }
        return wasShake ? .ended(timestamp: t) : .cancelled(timestamp: t)
    }

    /// A strong sample in `direction`: the same swing going on, a reversal, or ringing.
    private mutating func swing(_ direction: Vector3, at t: Double) {
        let p = parameters
        guard let last = lastSwing else {
            lastSwing = Swing(direction: direction, start: t, time: t)
            return
        }
        guard direction.dot(last.direction) < -0.5 else {
            // The same swing still going: keep the latest time it was strong.
            lastSwing = Swing(direction: direction, start: last.start, time: t)
            return
        }
        // A swing the other way: a hand's pace counts (half a period since the last swing
        // began), a tap's ringing (a few ms) does not; after a long pause it is a new movement.
        if t - last.time > p.maximumHalfPeriod {
            reversals = 0
            lastSwing = Swing(direction: direction, start: t, time: t)
        } else if t - last.start >= p.minimumHalfPeriod {
            reversals += 1
            lastSwing = Swing(direction: direction, start: t, time: t)
        }
    }

    /// Drops the swings seen so far unless a shake began before `time`: another recogniser
    /// explained them (a slap's hard stop is not the swing back of a shake). A shake that began
    /// at `time` or later goes too: its `began` was held back until that recogniser decided.
    public mutating func dismissSwings(beganSince time: Double = .infinity) {
        if let start = began, start < time { return }
        lastSwing = nil
        reversals = 0
        began = nil
    }

    private mutating func forgetSwings() {
        lastSwing = nil
        reversals = 0
        began = nil
    }
}
