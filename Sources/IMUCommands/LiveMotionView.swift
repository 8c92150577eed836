import Foundation
import IMUGeometry
import IMUMotion

/// The terminal view of `imu stream`: device motion redrawn in place a few times a second, with
/// small per-axis graphs of the last seconds (the seeds' MotionGraphs), the achieved rate and
/// dropped samples, and a figure-eight prompt while the magnetometer is poorly calibrated.
struct LiveMotionView {
    /// Seconds of history the graphs show.
    static let historySeconds = 5.0
    static let graphWidth = 50

    private var history: [(t: Double, user: Vector3, rotation: Vector3)] = []
    private var drawnLines = 0
    private var lastDraw = -Double.infinity
    private var samplesSinceDraw = 0
    private var achievedRate = 0.0

    mutating func add(_ motion: DeviceMotion) {
        history.append((motion.timestamp, motion.userAcceleration, motion.rotationRate))
        while let first = history.first, motion.timestamp - first.t > Self.historySeconds { history.removeFirst() }
        samplesSinceDraw += 1
    }

    /// Redraws at most 10 times a second; returns the text to write (cursor moved back up first).
    mutating func frame(for motion: DeviceMotion, dropped: Int, wallClock now: Double) -> String? {
        guard now - lastDraw >= 0.1 else { return nil }
        if lastDraw.isFinite { achievedRate = Double(samplesSinceDraw) / (now - lastDraw) }
        lastDraw = now
        samplesSinceDraw = 0
        let lines = render(motion, dropped: dropped)
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for line in lines { text += "\u{1B}[2K" + line + "\n" }
        drawnLines = lines.count
        return text
    }

    func render(_ m: DeviceMotion, dropped: Int) -> [String] {
        let degrees = 180 / Double.pi
        let e = m.attitude.quaternion.eulerAngles
        func v(_ x: Vector3, _ places: Int = 3) -> String {
            "x " + number(x.x, places).leftPadded(7) + "  y " + number(x.y, places).leftPadded(7) + "  z " + number(x.z, places).leftPadded(7)
        }
        var lines = [
            "imu stream — \(m.attitude.referenceFrame.rawValue)    (Ctrl-C to stop)",
            "attitude     roll \(number(e.roll * degrees, 1).leftPadded(7))°  pitch \(number(e.pitch * degrees, 1).leftPadded(7))°  yaw \(number(e.yaw * degrees, 1).leftPadded(7))°",
            "gravity      \(v(m.gravity)) g",
            "user accel   \(v(m.userAcceleration)) g",
            "rotation     \(v(m.rotationRate)) rad/s",
            "heading      " + (m.heading.map { number($0, 1) + "°" } ?? "–")
                + "    magnetometer: " + (m.magneticField.map { "\($0.accuracy)" } ?? "none"),
            "rate         \(number(achievedRate, 1)) Hz    dropped \(dropped)",
            "",
            "user acceleration, last \(Int(Self.historySeconds)) s (±2 g)",
        ]
        lines += ["x", "y", "z"].enumerated().map { axis, name in "  \(name) " + sparkline(history.map { $0.user[axis] }, range: 2) }
        lines.append("rotation rate (±5 rad/s)")
        lines += ["x", "y", "z"].enumerated().map { axis, name in "  \(name) " + sparkline(history.map { $0.rotation[axis] }, range: 5) }
        if let field = m.magneticField, field.accuracy <= .low {
            lines.append("")
            lines.append("↻ The compass needs calibrating: move the device in a figure-eight, turning it through every direction.")
        }
        return lines
    }

    /// Block characters, one per column, each the column's largest-magnitude value.
    func sparkline(_ values: [Double], range: Double) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        guard !values.isEmpty else { return "" }
        let perColumn = max(1, (values.count + Self.graphWidth - 1) / Self.graphWidth)  // at most graphWidth columns
        var text = ""
        for start in stride(from: 0, to: values.count, by: perColumn) {
            let chunk = values[start..<min(values.count, start + perColumn)]
            let value = chunk.max { abs($0) < abs($1) } ?? 0
            let level = Int(((value / range + 1) / 2 * Double(blocks.count - 1)).rounded())
            text.append(blocks[min(blocks.count - 1, max(0, level))])
        }
        return text
    }
}
