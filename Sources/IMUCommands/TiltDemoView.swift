import IMUGeometry
import IMUTilt
import IMUDevices
import IMUEngine
import IMUFormats

/// The picture `imu demo tilt` draws on a terminal of `columns` × `rows` cells: a title, the
/// push (an arrow along it, its angle and magnitude), and a framed arena with the ball.
///
/// The arena maps points to cells at 2 points a column and 4 a row (a cell is about twice as
/// tall as wide, so the ball moves alike in both directions); points have y up, rows go down.
struct TiltDemoView {
    static let pointsPerColumn = 2.0
    static let pointsPerRow = 4.0
    static let ball: Character = "●"
    /// The size when there is no terminal to ask (CSV output).
    static let standardSize = (columns: 80, rows: 24)

    let columns: Int
    let rows: Int
    /// What is read (chip and bus), for the title.
    var source = ""

    /// The cells inside the frame (a title and a status line above it).
    var arenaColumns: Int { max(1, columns - 2) }
    var arenaRows: Int { max(1, rows - 4) }

    /// The ball's centre may be anywhere from the first cell's to the last cell's.
    var bounds: PhysicsBounds {
        PhysicsBounds(width: Double(arenaColumns - 1) * Self.pointsPerColumn, height: Double(arenaRows - 1) * Self.pointsPerRow)
    }

    /// The arena cell (column from the left, row from the top, both from 0) holding `position`.
    func cell(of position: Vector2) -> (column: Int, row: Int) {
        let column = Int((position.x / Self.pointsPerColumn).rounded())
        let row = arenaRows - 1 - Int((position.y / Self.pointsPerRow).rounded())
        return (min(max(column, 0), arenaColumns - 1), min(max(row, 0), arenaRows - 1))
    }

    /// An arrow along the push (y up), a dot for none.
    static func arrow(for push: Push) -> Character {
        guard push.magnitude > 0 else { return "·" }
        let arrows = Array("→↗↑↖←↙↓↘")
        let eighth = Int((push.angle / (.pi / 4)).rounded())
        return arrows[((eighth % 8) + 8) % 8]
    }

    /// The status line: the push's arrow, angle (degrees and radians, atan2 with y up) and
    /// magnitude (and what it accelerates by), and the tilt.
    static func status(push: Push, tiltDegrees: Double?) -> String {
        let degrees = number(push.angle * 180 / .pi, 1)
        // Right-aligned in 6 cells ("-166.5" fills them), the unit right after the number.
        let angle = String(repeating: " ", count: max(0, 6 - degrees.count)) + degrees
        return "push \(arrow(for: push))  angle \(angle)° (\(number(push.angle, 2)) rad)"
            + "  magnitude \(number(push.magnitude, 2)) (\(number(push.magnitude * Push.pointsPerSecondSquaredPerMagnitude, 0)) points/s²)"
            + (tiltDegrees.map { "  tilt \(number($0, 1))°" } ?? "  (filter warming up)")
    }

    /// The lines of one frame, each at most `columns` wide.
    func render(ball position: Vector2, push: Push, tiltDegrees: Double?) -> [String] {
        guard columns >= 12, rows >= 7 else { return ["imu demo tilt: the terminal is too small"] }
        let ball = cell(of: position)
        var lines = [
            clipped("imu demo tilt — \(source)   q or Ctrl-C to quit"),
            clipped(Self.status(push: push, tiltDegrees: tiltDegrees)),
            "┌" + String(repeating: "─", count: arenaColumns) + "┐",
        ]
        let empty = String(repeating: " ", count: arenaColumns)
        for row in 0..<arenaRows {
            if row == ball.row {
                lines.append("│" + String(repeating: " ", count: ball.column) + String(Self.ball)
                    + String(repeating: " ", count: arenaColumns - ball.column - 1) + "│")
            } else {
                lines.append("│" + empty + "│")
            }
        }
        lines.append("└" + String(repeating: "─", count: arenaColumns) + "┘")
        return lines
    }

    /// The title's words, for tests that look for it.
    static let title = "imu demo tilt"

    private func clipped(_ line: String) -> String {
        line.count <= columns ? line : String(line.prefix(columns))
    }
}
