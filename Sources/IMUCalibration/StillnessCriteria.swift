import Foundation
import IMUGeometry

/// When a window of samples counts as "held still", for gyro bias and for the six poses.
///
/// The limits sit a few times above the datasheet noise at 100 Hz, so a device resting on a
/// table passes and a hand-held or nudged one does not:
/// - MPU-6050: gyro 0.005 °/s/√Hz → ≈ 0.05 °/s RMS; accel 400 µg/√Hz → ≈ 4 mg RMS.
/// - LSM9DS1: gyro ≈ 0.01 °/s/√Hz → ≈ 0.1 °/s RMS; accel ≈ 100 µg/√Hz → ≈ 1 mg RMS.
///
/// Standard deviations catch shaking and tremor, but not a slow steady turn (a constant rate
/// has no spread and would be taken for bias). A turn about any horizontal axis tilts gravity
/// in the device frame, so the direction of gravity in the first and the last quarter of the
/// window is compared too. A slow turn about the vertical cannot be told from bias without a
/// magnetometer; resting the device on a surface is the remedy, and the prompts say so.
public struct StillnessCriteria: Sendable, Equatable {
    /// Largest gyro standard deviation per axis, rad/s. Default 0.25 °/s: 5× the MPU-6050's
    /// and 2.5× the LSM9DS1's noise at 100 Hz.
    public var gyroStandardDeviationRadiansPerSecond: Double
    /// Largest accelerometer standard deviation per axis, g. Default 0.01 g: 2.5× the
    /// MPU-6050's noise at 100 Hz.
    public var accelStandardDeviationG: Double
    /// Largest change of the gravity direction between the first and last quarter of the
    /// window, degrees. Default 0.3°: a 0.2 °/s tilt over 3 s; the noise of quarter-window
    /// means is below 0.05°.
    public var gravityDriftDegrees: Double
    /// Shortest window, seconds.
    public var minimumDurationSeconds: Double
    /// Fewest samples (so the statistics mean something at low data rates).
    public var minimumSampleCount: Int

    public init(
        gyroStandardDeviationRadiansPerSecond: Double = 0.25 * .pi / 180,
        accelStandardDeviationG: Double = 0.01,
        gravityDriftDegrees: Double = 0.3,
        minimumDurationSeconds: Double = 2,
        minimumSampleCount: Int = 50
    ) {
        self.gyroStandardDeviationRadiansPerSecond = gyroStandardDeviationRadiansPerSecond
        self.accelStandardDeviationG = accelStandardDeviationG
        self.gravityDriftDegrees = gravityDriftDegrees
        self.minimumDurationSeconds = minimumDurationSeconds
        self.minimumSampleCount = minimumSampleCount
    }

    public static let standard = StillnessCriteria()
}

/// What a still window measured.
public struct StillWindow: Sendable, Equatable {
    public var sampleCount: Int
    public var durationSeconds: Double
    public var meanAccelerationG: Vector3
    public var meanRotationRateRadiansPerSecond: Vector3
    public var accelStandardDeviationG: Vector3
    public var gyroStandardDeviationRadiansPerSecond: Vector3
    /// Mean of the temperatures reported in the window, if any were.
    public var meanTemperatureCelsius: Double?
}

extension StillnessCriteria {
    /// Checks that `samples` (in time order) were taken while still; returns their statistics
    /// or the reason they were not (the first limit broken, with the figure and the axis).
    public func check(_ samples: [InertialSample]) throws(CalibrationRefusal) -> StillWindow {
        guard samples.count >= minimumSampleCount else {
            throw CalibrationRefusal(
                .notEnoughData, "only \(samples.count) samples; at least \(minimumSampleCount) are needed")
        }
        // N samples at a steady rate stand for N sample periods, one more than the span
        // between the first and the last timestamp.
        let span = samples[samples.count - 1].timestamp - samples[0].timestamp
        let duration = span * Double(samples.count) / Double(samples.count - 1)
        guard duration >= minimumDurationSeconds else {
            throw CalibrationRefusal(
                .notEnoughData,
                "the window lasted \(format(duration, 1)) s; hold still for at least \(format(minimumDurationSeconds, 1)) s")
        }
        let gyro = AxisStatistics(samples.lazy.map(\.rotationRateRadiansPerSecond))
        let accel = AxisStatistics(samples.lazy.map(\.accelerationG))
        let degrees = 180 / Double.pi
        for axis in 0..<3 where gyro.standardDeviation[axis] > gyroStandardDeviationRadiansPerSecond {
            throw CalibrationRefusal(
                .moved,
                "moved during the window: gyro std \(format(gyro.standardDeviation[axis] * degrees, 2)) °/s on "
                    + "\(axisNames[axis]) exceeds \(format(gyroStandardDeviationRadiansPerSecond * degrees, 2)) °/s")
        }
        for axis in 0..<3 where accel.standardDeviation[axis] > accelStandardDeviationG {
            throw CalibrationRefusal(
                .moved,
                "moved during the window: accelerometer std \(format(accel.standardDeviation[axis] * 1000, 1)) mg on "
                    + "\(axisNames[axis]) exceeds \(format(accelStandardDeviationG * 1000, 1)) mg")
        }
        let quarter = samples.count / 4
        let first = AxisStatistics(samples[..<quarter].lazy.map(\.accelerationG)).mean
        let last = AxisStatistics(samples[(samples.count - quarter)...].lazy.map(\.accelerationG)).mean
        let drift = angleDegrees(first, last)
        if drift > gravityDriftDegrees {
            throw CalibrationRefusal(
                .moved,
                "moved during the window: the device tilted \(format(drift, 2))° (more than "
                    + "\(format(gravityDriftDegrees, 2))°); rest it on a steady surface")
        }
        let temperatures = samples.compactMap(\.temperatureCelsius)
        return StillWindow(
            sampleCount: samples.count, durationSeconds: duration,
            meanAccelerationG: accel.mean, meanRotationRateRadiansPerSecond: gyro.mean,
            accelStandardDeviationG: accel.standardDeviation,
            gyroStandardDeviationRadiansPerSecond: gyro.standardDeviation,
            meanTemperatureCelsius: temperatures.isEmpty
                ? nil : temperatures.reduce(0, +) / Double(temperatures.count))
    }
}

/// The angle between two vectors, degrees (0 when either is zero).
func angleDegrees(_ a: Vector3, _ b: Vector3) -> Double {
    let la = a.length, lb = b.length
    guard la > 0, lb > 0 else { return 0 }
    // atan2 of |a × b| and a · b stays accurate for tiny angles, unlike acos.
    return atan2(a.cross(b).length, a.dot(b)) * 180 / .pi
}

/// A number with a fixed count of decimals, for messages ("0.31").
func format(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: "."), !text.contains("e") {
        let fraction = text[text.index(after: dot)...]
        if decimals == 0 { text = String(text[..<dot]) }
        else if fraction.count < decimals { text += String(repeating: "0", count: decimals - fraction.count) }
    }
    return text
}
