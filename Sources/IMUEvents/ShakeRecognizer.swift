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
public struct ShakeRecognizer: Sendable, Equatable {
    public struct Parameters: Sendable, Equatable {
        /// A swing is user acceleration above this, in g.
        public var swingThresholdG = 0.8
        /// Reversals closer than this are a tap's ringing, not a hand (s).
        public var minimumHalfPeriod = 0.06
        /// Reversals further apart than this are separate movements (s).
        public var maximumHalfPeriod = 0.5
        /// Reversals in a row that make a shake begin.
        public var reversalsToBegin = 2
        /// Quiet time after the last swing that ends a shake (s).
        public var quietToEnd = 0.4
        /// A shake longer than this is cancelled (s), as UIKit cancels a motion that goes on.
        public var maximumDuration = 5.0

        public init() {}
    }

    public let parameters: Parameters
    /// The direction of the last strong swing and when it was.
    private struct Swing: Sendable, Equatable {
        var direction: Vector3
        var time: Double
    }

    private var lastSwing: Swing?
    private var reversals = 0
    private var began: Double?

    public init(parameters: Parameters = Parameters()) {
        self.parameters = parameters
    }

    public var isShaking: Bool { began != nil }

    /// Feeds one sample; returns an event when a phase changes.
    public mutating func update(userAcceleration a: Vector3, timestamp t: Double) -> ShakeEvent? {
        let p = parameters
        if let start = began, t - start > p.maximumDuration {
            reset()
            return .cancelled(timestamp: t)
        }
        let magnitude = a.length
        if magnitude >= p.swingThresholdG {
            let direction = a / magnitude
            if let last = lastSwing {
                let gap = t - last.time
                if direction.dot(last.direction) < -0.5 {
                    // A swing the other way: a hand's pace counts, a ringing tap or a slow sway does not.
                    if gap >= p.minimumHalfPeriod && gap <= p.maximumHalfPeriod {
                        reversals += 1
                        lastSwing = Swing(direction: direction, time: t)
                    } else if gap > p.maximumHalfPeriod {
                        reversals = 0
                        lastSwing = Swing(direction: direction, time: t)
                    }
                } else {
                    // The same swing still going: keep the latest time it was strong.
                    lastSwing = Swing(direction: direction, time: t)
                }
            } else {
                lastSwing = Swing(direction: direction, time: t)
            }
            if began == nil && reversals >= p.reversalsToBegin {
                began = t
                return .began(timestamp: t)
            }
            return nil
        }
        if let last = lastSwing, t - last.time > p.quietToEnd {
            let wasShaking = began != nil
            reset()
            return wasShaking ? .ended(timestamp: t) : nil
        }
        return nil
    }

    private mutating func reset() {
        lastSwing = nil
        reversals = 0
        began = nil
    }
}
