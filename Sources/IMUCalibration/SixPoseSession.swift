import IMUGeometry

/// The guided six-pose procedure as a state machine on plain data: it says which pose comes
/// next, takes a window of samples per attempt, accepts it or says why not, and fits once all
/// six faces have been down. Poses may come in any order; the suggested one is only a prompt.
public struct SixPoseSession: Sendable {
    public var stillness: StillnessCriteria
    public var classifier: PoseClassifier
    /// Mean acceleration of each accepted pose, g.
    public private(set) var capturedMeansG: [SixPose: Vector3] = [:]

    /// The order in which poses are asked for: each flip is a quarter or half turn.
    public static let suggestedOrder: [SixPose] = [
        .backDown, .frontDown, .bottomDown, .topDown, .leftEdgeDown, .rightEdgeDown,
    ]

    public init(stillness: StillnessCriteria = .standard, classifier: PoseClassifier = PoseClassifier()) {
        self.stillness = stillness
        self.classifier = classifier
    }

    public enum Outcome: Sendable, Equatable {
        case accepted(SixPose)
        /// Not accepted; `reason` says why, in words for the person holding the device.
        case rejected(Rejection, reason: String)
    }

    public enum Rejection: Sendable, Equatable {
        case notStill
        case heldBadly(nearest: SixPose, tiltDegrees: Double)
        case notResting
        case repeated(SixPose)
        case alreadyComplete
    }

    /// The pose to ask for next; nil once all six are in.
    public var nextPose: SixPose? { Self.suggestedOrder.first { capturedMeansG[$0] == nil } }
    public var isComplete: Bool { nextPose == nil }
    public var remaining: [SixPose] { Self.suggestedOrder.filter { capturedMeansG[$0] == nil } }

    /// Offers one still window (a few seconds of samples).
    public mutating func offer(_ samples: [InertialSample]) -> Outcome {
        guard !isComplete else { return .rejected(.alreadyComplete, reason: "all six poses are already captured") }
        let window: StillWindow
        do {
            window = try stillness.check(samples)
        } catch {
            return .rejected(.notStill, reason: error.reason)
        }
        switch classifier.classify(meanAccelerationG: window.meanAccelerationG) {
        case .notResting(let magnitude):
            return .rejected(
                .notResting,
                reason: "the accelerometer read \(format(magnitude, 2)) g, not about 1 g: rest the device on a surface")
        case .heldBadly(let nearest, let tilt):
            return .rejected(
                .heldBadly(nearest: nearest, tiltDegrees: tilt),
                reason: "held badly: \(format(tilt, 1))° off \(nearest.name) (at most "
                    + "\(format(classifier.maximumTiltDegrees, 0))°); \(nearest.instruction), square against a flat surface")
        case .pose(let pose, _):
            if capturedMeansG[pose] != nil {
                let next = nextPose.map { "; next: \($0.instruction)" } ?? ""
                return .rejected(.repeated(pose), reason: "\(pose.name) is already captured\(next)")
            }
            capturedMeansG[pose] = window.meanAccelerationG
            return .accepted(pose)
        }
    }

    /// Forgets one pose, to take it again.
    public mutating func discard(_ pose: SixPose) { capturedMeansG[pose] = nil }

    /// Largest tilt of a pose once corrected. The fit uses the magnitude, so tilt alone
    /// costs nothing; but tilt mixed with the chip's cross-axis coupling (±1.5 % typical, not
    /// in the per-axis model and not separable from tilt with six poses) leaks into offset
    /// and scale. On synthetic data with that coupling, tilts up to 5° kept the offset within
    /// 1.7 mg and the scale within 0.15 % (the goal: 2 mg, 0.2 %); up to 10° gave 3.5 mg and
    /// 0.26 %.
    public var maximumCorrectedTiltDegrees = 5.0

    /// The calibration from the six captured poses. Poses that turn out more than
    /// `maximumCorrectedTiltDegrees` off their axis once corrected are discarded and the fit
    /// is refused, so `nextPose` asks for them again.
    public mutating func fit() throws(CalibrationRefusal) -> AccelerometerCalibration {
        let calibration = try SixPoseFit.fit(capturedMeansG)
        var tilted: [(SixPose, Double)] = []
        for pose in Self.suggestedOrder {
            let tilt = angleDegrees(calibration.apply(to: capturedMeansG[pose]!), pose.expectedAccelerationG)
            if tilt > maximumCorrectedTiltDegrees { tilted.append((pose, tilt)) }
        }
        guard tilted.isEmpty else {
            for (pose, _) in tilted { capturedMeansG[pose] = nil }
            let list = tilted.map { "\($0.0.name) \(format($0.1, 1))°" }.joined(separator: ", ")
            throw CalibrationRefusal(
                .badPose,
                "held badly: \(list) off once corrected (at most \(format(maximumCorrectedTiltDegrees, 0))°); "
                    + "take \(tilted.count == 1 ? "it" : "them") again, square against a flat surface")
        }
        return calibration
    }
}
