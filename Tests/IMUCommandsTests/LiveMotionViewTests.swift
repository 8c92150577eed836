import Foundation
import IMUGeometry
import IMUMotion
import Testing
@testable import IMUCommands

/// `imu stream`'s terminal view: every quantity the issue lists, the per-axis graphs, the
/// achieved rate and dropped samples, and the figure-eight prompt only while the compass is
/// poorly calibrated.
@Suite struct LiveMotionViewTests {
    func motion(at t: Double, accuracy: MagneticFieldCalibrationAccuracy) -> DeviceMotion {
        DeviceMotion(
            timestamp: t, attitude: Attitude(quaternion: Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2), referenceFrame: .xMagneticNorthZVertical),
            rotationRate: Vector3(0, 0, 4 * sin(3 * t)), gravity: Vector3(0, -1, 0), userAcceleration: Vector3(0.5 * sin(3 * t), 0, 0),
            magneticField: CalibratedMagneticField(field: Vector3(0, 20, -45), accuracy: accuracy), heading: 123.4)
    }

    /// Two seconds at 100 Hz, drawn as the stream draws it (wall clock = sample time here).
    func view(accuracy: MagneticFieldCalibrationAccuracy, dropped: Int) -> (LiveMotionView, String) {
        var view = LiveMotionView()
        var last = ""
        for i in 0..<200 {
            let m = motion(at: Double(i) / 100, accuracy: accuracy)
            view.add(m)
            if let text = view.frame(for: m, dropped: dropped, wallClock: m.timestamp) { last = text }
        }
        return (view, last)
    }

    @Test func showsEveryQuantityTheRateAndTheDroppedSamples() {
        let (_, text) = view(accuracy: .high, dropped: 7)
        #expect(text.contains("pitch    90.0°"), "\(text)")
        #expect(text.contains("gravity") && text.contains("-1.000"))
        #expect(text.contains("user accel") && text.contains("rotation"))
        #expect(text.contains("heading      123.4°") && text.contains("magnetometer: high"))
        #expect(text.contains("dropped 7"))
        // Redrawn every 0.1 s with 10 samples each time: 100 Hz achieved.
        #expect(text.contains("rate         100.0 Hz"), "\(text)")
        // Redrawn in place: the cursor goes back up over the previous frame.
        #expect(text.hasPrefix("\u{1B}["))
        #expect(!text.contains("figure-eight"))
    }

    @Test func graphsFollowEachAxis() {
        let (_, text) = view(accuracy: .high, dropped: 0)
        // Each line starts with "erase line" (after the cursor-up on the first).
        let lines = text.split(separator: "\n").map { String($0.components(separatedBy: "\u{1B}[2K").last!) }
        #expect(lines.contains { $0.hasPrefix("user acceleration, last 5 s") } && lines.contains { $0.hasPrefix("rotation rate") })
        // A flat axis is a flat line at the middle; a moving one uses several levels.
        // Five seconds of history at most, in at most 50 columns (199 samples here).
        let graphs = lines.filter { $0.hasPrefix("  x ") || $0.hasPrefix("  y ") || $0.hasPrefix("  z ") }
        #expect(graphs.count == 6 && graphs.allSatisfy { $0.count - 4 <= LiveMotionView.graphWidth && $0.count - 4 >= 40 }, "\(graphs)")
        let userY = lines.first { $0.hasPrefix("  y ") }!
        #expect(Set(userY.dropFirst(4)).count == 1, "\(userY)")
        let rotationZ = lines.last { $0.hasPrefix("  z ") }!
        #expect(Set(rotationZ.dropFirst(4)).count > 3, "\(rotationZ)")
    }

    @Test(arguments: [MagneticFieldCalibrationAccuracy.uncalibrated, .low])
    func promptsForAFigureEightWhileTheCompassIsPoorlyCalibrated(accuracy: MagneticFieldCalibrationAccuracy) {
        let (_, text) = view(accuracy: accuracy, dropped: 0)
        #expect(text.contains("figure-eight"), "\(text)")
    }

    @Test func noPromptAtMediumAccuracy() {
        let (_, text) = view(accuracy: .medium, dropped: 0)
        #expect(!text.contains("figure-eight"))
    }
}
