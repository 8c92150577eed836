import IMUGeometry

/// A sequence of held poses with smooth turns between them.
public struct PoseSequenceScenario: MotionScenario {
    public let name: String
    public let summary: String
    public let poses: [Pose]
    /// Seconds each pose is held still.
    public let holdSeconds: Double
    /// Seconds each turn to the next pose takes (eased in and out, so the rate starts and ends at 0).
    public let transitionSeconds: Double

    public init(name: String, summary: String, poses: [Pose], holdSeconds: Double = 3, transitionSeconds: Double = 1) {
        self.name = name
        self.summary = summary
        self.poses = poses
        self.holdSeconds = holdSeconds
        self.transitionSeconds = transitionSeconds
    }

    /// The seeds' rotation sequence: upright → turned 90° clockwise (x = +1) → upside down
    /// (y = +1) → 90° more (x = −1) → tilted back onto its back (z = −1) → face down (z = +1).
    public static let seeds = PoseSequenceScenario(
        name: "seed-sequence",
        summary: "upright, landscape right, upside down, landscape left, on its back, face down (3 s each)",
        poses: [.upright, .landscapeRight, .upsideDown, .landscapeLeft, .onBack, .faceDown])

    /// The pose held at `t`, or nil while turning.
    public func pose(at t: Double) -> Pose? {
        let period = holdSeconds + transitionSeconds
        let index = max(0, Int((t / period).rounded(.down)))
        if index >= poses.count - 1 { return poses.last }
        return t - Double(index) * period < holdSeconds ? poses[index] : nil
    }

    public func truth(at t: Double) -> MotionTruth {
        let period = holdSeconds + transitionSeconds
        let index = max(0, Int((max(t, 0) / period).rounded(.down)))
        if index >= poses.count - 1 { return MotionTruth(attitude: poses[poses.count - 1].attitude) }
        let into = max(t, 0) - Double(index) * period
        let from = poses[index].attitude
        if into < holdSeconds { return MotionTruth(attitude: from) }
        let f = (into - holdSeconds) / transitionSeconds
        let eased = f * f * (3 - 2 * f)
        return MotionTruth(attitude: Quaternion.slerp(from, poses[index + 1].attitude, eased))
    }
}
