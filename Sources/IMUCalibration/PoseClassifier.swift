import Foundation
import IMUGeometry

/// Which face is down, from the mean acceleration of a still window; a pose more than
/// `maximumTiltDegrees` off its axis is "held badly".
public struct PoseClassifier: Sendable, Equatable {
    /// Largest angle between the measured (uncalibrated) gravity and the pose's axis.
    /// Default 10°: an uncalibrated part's offsets alone tilt the reading by up to ~5°
    /// (80 mg), so this only catches poses that are plainly wrong; the session checks the
    /// tilt again, tighter, on corrected readings once all six are in
    /// (`SixPoseSession.maximumCorrectedTiltDegrees`).
    public var maximumTiltDegrees: Double
    /// The measured magnitude must be within this fraction of 1 g. Default 15%: uncalibrated
    /// parts are off by a few %, a device being moved or resting on something soft by more.
    public var magnitudeTolerance: Double

    public init(maximumTiltDegrees: Double = 10, magnitudeTolerance: Double = 0.15) {
        self.maximumTiltDegrees = maximumTiltDegrees
        self.magnitudeTolerance = magnitudeTolerance
    }

    public enum Classification: Sendable, Equatable {
        case pose(SixPose, tiltDegrees: Double)
        /// Nearest pose, and how far off its axis the device is.
        case heldBadly(nearest: SixPose, tiltDegrees: Double)
        /// Not about 1 g: moving, or not resting.
        case notResting(magnitudeG: Double)
    }

    public func classify(meanAccelerationG a: Vector3) -> Classification {
        let magnitude = a.length
        guard abs(magnitude - 1) <= magnitudeTolerance else { return .notResting(magnitudeG: magnitude) }
        let pose = SixPose.nearest(to: a)
        let tilt = angleDegrees(a, pose.expectedAccelerationG)
        return tilt <= maximumTiltDegrees ? .pose(pose, tiltDegrees: tilt) : .heldBadly(nearest: pose, tiltDegrees: tilt)
    }
}
