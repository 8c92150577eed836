import Foundation
import IMUGeometry
import IMUMotion
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu stream`'s terminal view: every quantity, the achieved rate and dropped samples, graphs of
/// attitude, user acceleration and rotation rate scaled to what they show, what is uncalibrated
/// with the command that fixes it, and a layout that fits the window (issue 18).
@Suite struct LiveMotionViewTests {
    func motion(at t: Double, accuracy: MagneticFieldCalibrationAccuracy) -> DeviceMotion {
        DeviceMotion(
            timestamp: t, attitude: Attitude(quaternion: Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2), referenceFrame: .xMagneticNorthZVertical),
            rotationRate: Vector3(0, 0, 0.3 * sin(3 * t)), gravity: Vector3(0, -1, 0), userAcceleration: Vector3(0.05 * sin(3 * t), 0, 0),
            magneticField: CalibratedMagneticField(field: Vector3(0, 20, -45), accuracy: accuracy), heading: 123.4)
    }

    /// Two seconds at 100 Hz, drawn as the stream draws it (wall clock = sample time here).
    func frame(accuracy: MagneticFieldCalibrationAccuracy, dropped: Int, notice: String? = nil, columns: Int = 80, rows: Int = 24) -> [String] {
        var view = LiveMotionView(calibrationNotice: notice)
        var last: [String] = []
        for i in 0..<200 {
            let m = motion(at: Double(i) / 100, accuracy: accuracy)
            view.add(m)
            if let lines = view.frame(for: m, dropped: dropped, wallClock: m.timestamp, columns: columns, rows: rows) { last = lines }
        }
        return last
    }

    @Test func showsEveryQuantityTheRateAndTheDroppedSamples() {
        let text = frame(accuracy: .high, dropped: 7).joined(separator: "\n")
        #expect(text.contains("pitch    90.0°"), "\(text)")
        #expect(text.contains("gravity") && text.contains("-1.000"))
        #expect(text.contains("user accel") && text.contains("rotation"))
        #expect(text.contains("heading      123.4°") && text.contains("compass high"))
        #expect(text.contains("dropped 7"))
        // Redrawn every 0.1 s with 10 samples each time: 100 Hz achieved.
        #expect(text.contains("rate 100.0 Hz"), "\(text)")
        #expect(!text.contains("figure-eight") && !text.contains("uncalibrated"))
    }

    /// Attitude is graphed, and each graph is scaled to its largest value: a 0.05 g wobble and a
    /// 0.3 rad/s turn fill the height instead of drawing flat lines at a fixed ±2 g / ±5 rad/s.
    @Test func graphsShowAttitudeAndUseTheirHeight() {
        let lines = frame(accuracy: .high, dropped: 0)
        #expect(lines.contains { $0.hasPrefix("attitude, last 5 s") }, "\(lines)")
        let userIndex = lines.firstIndex { $0.hasPrefix("user acceleration, last 5 s: x ±0.05  y ±0.05  z ±0.05 g") }
        let rotationIndex = lines.firstIndex { $0.hasPrefix("rotation rate, last 5 s: x ±0.20  y ±0.20  z ±0.30 rad/s") }
        #expect(userIndex != nil && rotationIndex != nil, "\(lines)")
        guard let userIndex, let rotationIndex else { return }
        let userX = lines[userIndex + 1].dropFirst(7), userY = lines[userIndex + 2].dropFirst(7)
        #expect(Set(userY).count == 1, "\(userY)")
        // The whole height, lowest block to highest.
        #expect(userX.contains("▁") && userX.contains("█"), "\(userX)")
        let rotationZ = lines[rotationIndex + 3].dropFirst(7)
        #expect(rotationZ.contains("▁") && rotationZ.contains("█"), "\(rotationZ)")
    }

    /// Each angle on its own scale, unwrapped: a ±20° roll beside a yaw turning through ±180°
    /// fills its height, and the yaw is one continuous curve centred on 180°, not a jump.
    @Test func anglesAreScaledEachAndUnwrapped() {
        var view = LiveMotionView()
        var last: [String] = []
        for i in 0..<200 {
            let t = Double(i) / 100
            let roll = 20 * sin(3 * t) * .pi / 180, yaw = (170 + 10 * t) * .pi / 180
            // Core Motion's roll turns about y (pitch about x).
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * Quaternion(axis: Vector3(0, 1, 0), angle: roll)
            let m = DeviceMotion(
                timestamp: t, attitude: Attitude(quaternion: q, referenceFrame: .xArbitraryZVertical), rotationRate: Vector3(0, 0, 0),
                gravity: Vector3(0, 0, -1), userAcceleration: Vector3(0, 0, 0), magneticField: nil, heading: nil)
            view.add(m)
            if let lines = view.frame(for: m, dropped: 0, wallClock: t, columns: 80, rows: 24) { last = lines }
        }
        let label = try? #require(last.first { $0.hasPrefix("attitude, last 5 s: ") })
        // Roll spans ±20°, pitch stays within the 5° floor, yaw runs 170° → 190° (−170°): centred on 180°.
        #expect(label?.contains("roll ±20") == true && label?.contains("pitch ±5") == true, "\(last)")
        #expect(label?.contains("yaw 180±10°") == true || label?.contains("yaw -180±10°") == true, "\(last)")
        guard let index = last.firstIndex(where: { $0.hasPrefix("attitude, last 5 s: ") }) else { return }
        let roll = last[index + 1].dropFirst(7), yaw = last[index + 3].dropFirst(7)
        #expect(roll.contains("▁") && roll.contains("█"), "\(roll)")
        // Continuous: the yaw's levels only rise, left to right (no drop at ±180°).
        let levels = yaw.map { Array("▁▂▃▄▅▆▇█").firstIndex(of: $0) ?? -1 }
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 }, "\(yaw)")
    }

    @Test func unwrappingKeepsTurnsAndRemovesWraps() {
        #expect(LiveMotionView.unwrappedDegrees([170, 179, -179, -170]) == [170, 179, 181, 190])
        #expect(LiveMotionView.unwrappedDegrees([-170, 175]) == [-170, -185])
    }

    @Test func saysWhatIsUncalibratedAndWhatToRun() {
        let notice = "uncalibrated gyroscope (yaw drifts) and compass (heading wanders); fix: imu calibrate gyro --sim && imu calibrate mag --sim"
        let lines = frame(accuracy: .uncalibrated, dropped: 0, notice: notice)
        // Wrapped at the width, continuation lines indented: read as one text.
        let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("! uncalibrated gyroscope (yaw drifts)"), "\(lines)")
        #expect(text.contains("imu calibrate gyro --sim") && text.contains("imu calibrate mag --sim"), "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 79 }, "\(lines)")
    }

    @Test(arguments: [MagneticFieldCalibrationAccuracy.uncalibrated, .low])
    func promptsForAFigureEightWhileTheCompassIsPoorlyCalibrated(accuracy: MagneticFieldCalibrationAccuracy) {
        #expect(frame(accuracy: accuracy, dropped: 0).joined().contains("figure-eight"))
    }

    @Test func noPromptAtMediumAccuracy() {
        #expect(!frame(accuracy: .medium, dropped: 0).joined().contains("figure-eight"))
    }

    /// 80×24 and 120×40: as many lines as rows at most, every graph that fits; the larger window
    /// draws wider graphs. `ScreenFit` then cuts what is still too wide.
    @Test(arguments: [(80, 24), (120, 40), (60, 12)])
    func fitsTheWindow(columns: Int, rows: Int) {
        let notice = "uncalibrated gyroscope (yaw drifts) and compass (heading wanders); fix: imu calibrate gyro --sim && imu calibrate mag --sim"
        let lines = frame(accuracy: .uncalibrated, dropped: 0, notice: notice, columns: columns, rows: rows)
        #expect(lines.count <= rows, "\(lines.count) lines")
        let fitted = ScreenFit.fit(lines, columns: columns, rows: rows)
        #expect(fitted.allSatisfy { $0.count <= columns })
        if rows >= 24 {
            #expect(lines.filter { $0.contains(", last 5 s") }.count == 3, "\(lines)")
        }
        let graph = lines.first { $0.hasPrefix("  roll ") }
        if rows >= 24 { #expect(graph.map { $0.count > columns - 20 } == true, "\(String(describing: graph))") }
        // The rows to spare make the graphs taller: at 40 rows each axis gets several, and the
        // three graphs still fit.
        let attitude = lines.firstIndex { $0.hasPrefix("attitude, last") }
        let user = lines.firstIndex { $0.hasPrefix("user acceleration, last") }
        if let attitude, let user {
            let perAxis = (user - attitude - 1) / 3
            #expect(rows >= 40 ? perAxis >= 2 : perAxis == 1, "\(perAxis) rows an axis: \(lines)")
        }
    }
}
