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
                reason: "held badly: \(format(tilt, 1))° off \(nearest.rawValue) (at most "
                    + "\(format(classifier.maximumTiltDegrees, 0))°); \(nearest.instruction), square against a flat surface")
        case .pose(let pose, _):
            if capturedMeansG[pose] != nil {
                let next = nextPose.map { "; next: \($0.instruction)" } ?? ""
                return .rejected(.repeated(pose), reason: "\(pose.rawValue) is already captured\(next)")
            }
            capturedMeansG[pose] = window.meanAccelerationG
            return .accepted(pose)
        }
    }

    /// Forgets one pose, to take it again.
    public mutating func discard(_ pose: SixPose) { capturedMeansG[pose] = nil }

    /// The calibration from the six captured poses.
    public func fit() throws(CalibrationRefusal) -> AccelerometerCalibration {
        try SixPoseFit.fit(capturedMeansG)
    }
}
