import Foundation
import IMUGeometry
import IMUDevices
import IMUEngine
import IMUFormats

/// What `imu soak` measures over one reporting interval: how far the estimate is from the
/// twin's truth, how far the output quaternion is from unit length, samples missing from the
/// timestamps. Plain sums; `reset()` starts the next interval.
struct SoakStatistics {
    var samples = 0
    /// Samples with an estimate (the filter warms up after a start or a long gap).
    var estimates = 0
    var squaredAttitudeError = 0.0
    var largestAttitudeError = 0.0
    var squaredInclinationError = 0.0
    var largestNormError = 0.0
    /// Samples missing between consecutive timestamps (a gap of k periods misses k − 1).
    var missing = 0

    /// One estimate; `core` is the fixed-point core's own attitude (before any conversion), whose
    /// norm the filter must keep at 1.
    mutating func add(estimate: Quaternion, gravity: Vector3, truth: Quaternion, core: Quaternion) {
        estimates += 1
        let error = estimate.angle(to: truth) * 180 / .pi
        squaredAttitudeError += error * error
        largestAttitudeError = max(largestAttitudeError, error)
        let trueGravity = truth.conjugate.rotate(Vector3(0, 0, -1))
        let inclination = Self.angleDegrees(gravity, trueGravity)
        squaredInclinationError += inclination * inclination
        let q = core
        largestNormError = max(largestNormError, abs((q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot() - 1))
    }

    var attitudeRMSDegrees: Double { estimates == 0 ? 0 : (squaredAttitudeError / Double(estimates)).squareRoot() }
    var inclinationRMSDegrees: Double { estimates == 0 ? 0 : (squaredInclinationError / Double(estimates)).squareRoot() }

    /// The angle between two vectors, in degrees (atan2 of |a×b| and a·b: accurate near 0°).
    static func angleDegrees(_ a: Vector3, _ b: Vector3) -> Double {
        atan2(a.cross(b).length, a.dot(b)) * 180 / .pi
    }
}
