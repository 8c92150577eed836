import Foundation
import IMUGeometry

/// Which face is down, from the mean acceleration of a still window; a pose more than
/// `maximumTiltDegrees` off its axis is "held badly" (a tilted pose mixes two axes, and the
/// fit assumes each axis sees ±1 g once and 0 g four times).
public struct PoseClassifier: Sendable, Equatable {
    /// Largest angle between the measured gravity and the pose's axis. Default 10°: easy to
    /// meet against a table edge or a book, while the fit (which uses the magnitude, not the
    /// on-axis reading alone) stays exact for any tilt below it.
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
