import Foundation
import IMUGeometry
import IMUMotion
import IMUDevices
import IMUEngine
import IMUFormats

/// The terminal view of `imu stream`: device motion redrawn in place a few times a second on the
/// alternate screen (`TerminalScreen`), fitted to the window and laid out again when it is
/// resized. Numbers first, then what is uncalibrated and the command that fixes it, then graphs
/// of the last seconds (attitude, user acceleration, rotation rate), each scaled to what it shows
/// so a board that only tilts does not draw flat lines; the rows left over go to the graphs.
struct LiveMotionView {
    /// Seconds of history the graphs show.
    static let historySeconds = 5.0
    static let title = "imu stream"

    private var history: [(t: Double, attitude: Vector3, user: Vector3, rotation: Vector3)] = []
    private var lastDraw = -Double.infinity
    private var samplesSinceDraw = 0
    private var achievedRate = 0.0
    /// What is uncalibrated and what to run, shown under the numbers (nil: all calibrated).
    var calibrationNotice: String?

    init(calibrationNotice: String? = nil) { self.calibrationNotice = calibrationNotice }

    mutating func add(_ motion: DeviceMotion) {
        let degrees = 180 / Double.pi
        let e = motion.attitude.quaternion.eulerAngles
        history.append((motion.timestamp, Vector3(e.roll * degrees, e.pitch * degrees, e.yaw * degrees), motion.userAcceleration, motion.rotationRate))
        if let first = history.first, motion.timestamp - first.t > Self.historySeconds {
            history.removeFirst(history.prefix { motion.timestamp - $0.t > Self.historySeconds }.count)
        }
        samplesSinceDraw += 1
    }

    /// The lines of a frame for a window of `columns` × `rows`, at most 10 a second (nil between).
    /// `compass`: the compass's accuracy when the motion carries no field (a line read back from
    /// the daemon says only the accuracy).
    mutating func frame(
        for motion: DeviceMotion, compass: MagneticFieldCalibrationAccuracy? = nil, dropped: Int, wallClock now: Double, columns: Int, rows: Int
    ) -> [String]? {
        guard now - lastDraw >= 0.1 else { return nil }
        if lastDraw.isFinite { achievedRate = Double(samplesSinceDraw) / (now - lastDraw) }
        lastDraw = now
        samplesSinceDraw = 0
        return render(motion, compass: compass, dropped: dropped, columns: columns, rows: rows)
    }

    func render(_ m: DeviceMotion, compass: MagneticFieldCalibrationAccuracy? = nil, dropped: Int, columns: Int = 80, rows: Int = 24) -> [String] {
        let compass = m.magneticField?.accuracy ?? compass
        let degrees = 180 / Double.pi
        let e = m.attitude.quaternion.eulerAngles
        func v(_ x: Vector3, _ places: Int = 3) -> String {
            "x " + number(x.x, places).leftPadded(7) + "  y " + number(x.y, places).leftPadded(7) + "  z " + number(x.z, places).leftPadded(7)
        }
        var lines = [
            "\(Self.title) — \(m.attitude.referenceFrame.rawValue)   Ctrl-C stops",
            "attitude     roll \(number(e.roll * degrees, 1).leftPadded(7))°  pitch \(number(e.pitch * degrees, 1).leftPadded(7))°  yaw \(number(e.yaw * degrees, 1).leftPadded(7))°",
            "gravity      \(v(m.gravity)) g",
            "user accel   \(v(m.userAcceleration)) g",
            "rotation     \(v(m.rotationRate)) rad/s",
            "heading      " + (m.heading.map { number($0, 1) + "°" } ?? "–")
                + "   compass " + (compass.map { "\($0)" } ?? "none")
                + "   rate \(number(achievedRate, 1)) Hz   dropped \(dropped)",
        ]
        if let notice = calibrationNotice {
            lines += Self.wrap("! " + notice, width: columns - 1, indent: "  ")
        } else if let compass, compass <= .low {
            lines += Self.wrap("! compass \(compass): move the device in a figure-eight, through every direction", width: columns - 1, indent: "  ")
        }
        // The graphs: a label line and one line per axis each, as many as fit (attitude first).
        let graphs: [(name: String, unit: String, floor: Double, isAngle: Bool, series: (Int) -> [Double])] = [
            ("attitude", "°", 5, true, { axis in history.map { $0.attitude[axis] } }),
            ("user acceleration", " g", 0.05, false, { axis in history.map { $0.user[axis] } }),
            ("rotation rate", " rad/s", 0.2, false, { axis in history.map { $0.rotation[axis] } }),
        ]
        let names = [["roll", "pitch", "yaw"], ["x", "y", "z"], ["x", "y", "z"]]
        let width = max(10, columns - 8)
        // Rows to spare go to the graphs: each axis as tall as three graphs of three axes allow.
        let height = max(1, min(4, (rows - lines.count - 3) / 9))
        for (index, graph) in graphs.enumerated() where rows - lines.count >= 1 + 3 * height {
            // Each axis on its own scale (a ±25° roll beside a 170° yaw is not a flat line), angles
            // unwrapped (a yaw through ±180° is one curve) and centred on the middle of what they
            // span; never finer than the floor, so noise stays small.
            let scales = (0..<3).map { axis in
                ChartScale(graph.isAngle ? Self.unwrappedDegrees(graph.series(axis)) : graph.series(axis), centred: graph.isAngle, floor: graph.floor)
            }
            let places = graph.floor < 1 ? 2 : 0
            let label = (0..<3).map { names[index][$0] + " " + scales[$0].label(places: places) }.joined(separator: "  ")
            lines.append("\(graph.name), last \(Int(Self.historySeconds)) s: \(label)\(graph.unit)")
            for axis in 0..<3 {
                let chart = Self.chart(scales[axis].offsets, range: scales[axis].range, width: width, height: height)
                for (row, text) in chart.enumerated() {
                    lines.append((row == height - 1 ? names[index][axis] : "").leftPadded(6) + " " + text)
                }
            }
        }
        return lines
    }

    /// Angles in degrees made continuous: a step of more than 180° between neighbours is a wrap
    /// through ±180°, not a turn.
    static func unwrappedDegrees(_ angles: [Double]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(angles.count)
        for angle in angles {
            guard let previous = out.last else {
                out.append(angle)
                continue
            }
            out.append(previous + remainder(angle - previous, 360))
        }
        return out
    }

    /// One graphed axis: the values as offsets from a centre, and the half-height they fill.
    struct ChartScale {
        let centre: Double
        let range: Double
        let offsets: [Double]

        /// `centred`: about the middle of the span (angles); else about zero (rates, accelerations).
        init(_ values: [Double], centred: Bool, floor: Double) {
            let low = values.min() ?? 0, high = values.max() ?? 0
            centre = centred ? (low + high) / 2 : 0
            let centre = centre
            range = max(floor, values.map { abs($0 - centre) }.max() ?? 0)
            offsets = values.map { $0 - centre }
        }

        /// `±0.30`, or `170±12` for a centred scale (the centre wrapped back to ±180).
        func label(places: Int) -> String {
            let spread = "±" + number(range, places)
            let middle = number(remainder(centre, 360), 0)
            return middle == "0" || middle == "-0" ? spread : middle + spread
        }
    }

    /// `height` rows of bars, lowest value at the bottom edge, highest at the top (8 levels a row).
    static func chart(_ values: [Double], range: Double, width: Int, height: Int) -> [String] {
        guard height > 1 else { return [sparkline(values, range: range, width: width)] }
        let blocks = Array(" ▁▂▃▄▅▆▇█")
        let perColumn = max(1, (values.count + width - 1) / width)
        var levels: [Int] = []
        for start in stride(from: 0, to: values.count, by: perColumn) {
            let chunk = values[start..<min(values.count, start + perColumn)]
            let value = chunk.max { abs($0) < abs($1) } ?? 0
            levels.append(1 + Int(((value / range + 1) / 2 * Double(8 * height - 1)).rounded()))
        }
        return (0..<height).map { row in
            let below = 8 * (height - 1 - row)
            return String(levels.map { blocks[min(8, max(0, $0 - below))] })
        }
    }

    /// Words wrapped at `width`, later lines indented.
    static func wrap(_ text: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if candidate.count > width, !line.isEmpty {
                lines.append(line)
                line = indent + word
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Block characters, at most `width` columns, each the column's largest-magnitude value;
    /// the middle level is zero.
    static func sparkline(_ values: [Double], range: Double, width: Int) -> String {
        let blocks = Array("▁▂▃▄▅▆▇█")
        guard !values.isEmpty, width > 0 else { return "" }
        let perColumn = max(1, (values.count + width - 1) / width)
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
