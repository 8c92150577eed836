import IMUGeometry
import IMUTilt
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu demo tilt` piped (CSV), its option checks, and how its view maps points to cells.
@Suite struct TiltDemoOutputTests {
    struct Row {
        var t, angle, magnitude, x, y, vx, vy: Double
    }

    static func rows(_ result: IMUResult) throws -> [Row] {
        try #require(result.lines.first == "t,push_angle_rad,push_magnitude,x,y,vx,vy", "\(result.stdout.prefix(200))")
        return try result.lines.dropFirst().map { line in
            let f = line.split(separator: ",").compactMap { Double($0) }
            try #require(f.count == 7, "\(line)")
            return Row(t: f[0], angle: f[1], magnitude: f[2], x: f[3], y: f[4], vx: f[5], vy: f[6])
        }
    }

    @Test("piped: one CSV line per frame; on its right edge the board pushes right with magnitude 1", arguments: ["sim", "gy-521"])
    func pipedLandscapeRight(board: String) async throws {
        let result = try await imu(
            "demo", "tilt", "--sim", "landscape-right", "--board", board, "--errors", "calibrated", "--virtual-time", "--duration", "3")
        try #require(result.succeeded, "\(result)")
        let rows = try Self.rows(result)
        // 30 lines a second of the twin's time.
        #expect(rows.count >= 85 && rows.count <= 95, "\(rows.count) lines")
        let first = try #require(rows.first), last = try #require(rows.last)
        // The standard 80 × 24 view's arena is 154 × 76 points; the ball starts in the middle.
        #expect(first.x == 77 && first.y == 38)
        #expect(abs(last.angle) < 0.02 && abs(last.magnitude - 1) < 0.01, "push \(last.angle) rad × \(last.magnitude)")
        // 100 points/s² to the right: it rolls to the right wall (x = 154) and bounces there,
        // never left of where it started, at mid-height all along.
        #expect(rows.map(\.x).max() == 154)
        #expect(rows.allSatisfy { $0.x >= 77 && abs($0.y - 38) < 2 }, "\(rows.map { ($0.x, $0.y) })")
    }

    @Test("bad options are refused with what was expected", arguments: [
        (["--dead-zone", "90"], "--dead-zone must be from 0 up to 90 degrees"),
        (["--viscosity=-1"], "--viscosity must be 0 or more"),
        (["--rate", "5"], "--rate must be between 10 and 1000"),
        (["--duration", "0"], "--duration must be more than 0 seconds"),
    ])
    func badOptions(options: [String], message: String) async throws {
        let result = try await IMUProcess(["demo", "tilt", "--sim", "--virtual-time"] + options).finish(within: 30)
        #expect(!result.succeeded && result.stderr.contains(message), "\(result)")
    }

    @Test("the view: the arena's corners are the bounds' corners (y up, rows down)")
    func cells() {
        let view = TiltDemoView(columns: 80, rows: 24)
        #expect(view.arenaColumns == 78 && view.arenaRows == 20)
        #expect(view.bounds == PhysicsBounds(width: 154, height: 76))
        #expect(view.cell(of: .zero) == (0, 19))
        #expect(view.cell(of: Vector2(154, 76)) == (77, 0))
        #expect(view.cell(of: Vector2(154, 0)) == (77, 19))
        let lines = view.render(ball: Vector2(154, 76), push: .none, tiltDegrees: nil)
        #expect(lines.count == 24)
        #expect(lines[3] == "│" + String(repeating: " ", count: 77) + "●│")
    }

    @Test("the arrow points along the push", arguments: [
        (0.0, "→"), (45.0, "↗"), (90.0, "↑"), (135.0, "↖"), (180.0, "←"), (-135.0, "↙"), (-90.0, "↓"), (-45.0, "↘"), (10.0, "→"),
    ])
    func arrows(degrees: Double, arrow: Character) {
        #expect(TiltDemoView.arrow(for: Push(angle: degrees * .pi / 180, magnitude: 0.5)) == arrow)
        #expect(TiltDemoView.arrow(for: Push(angle: degrees * .pi / 180, magnitude: 0)) == "·")
    }
}
