import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// The seeds' device-motion examples on the twin, end to end (registers → drivers → calibration →
/// fusion → `imu stream`): Euler angles with Core Motion's meanings, gravity through device motion.
@Suite struct DeviceMotionSeedTests {
    struct Row {
        var t, roll, pitch, yaw: Double
        var gravity: (Double, Double, Double)
        var heading: Double?
    }

    func stream(_ scenario: String, frame: String = "xMagneticNorthZVertical", seconds: Int = 8) async throws -> [Row] {
        let result = try await imu(
            "stream", "--sim", scenario, "--errors", "calibrated", "--frame", frame, "--virtual-time",
            "--duration", String(seconds), "--format", "csv")
        try #require(result.succeeded, "\(result)")
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }.map { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            return Row(t: f[0]!, roll: f[5]!, pitch: f[6]!, yaw: f[7]!, gravity: (f[8]!, f[9]!, f[10]!), heading: f[17])
        }
    }

    /// Means over the last seconds (after warm-up and settling).
    func settled(_ rows: [Row], _ value: (Row) -> Double) -> Double {
        let last = rows.filter { $0.t > (rows.last?.t ?? 0) - 3 }
        return last.map(value).reduce(0, +) / Double(last.count)
    }

    @Test func heldUprightIsPitchPlus90() async throws {
        let rows = try await stream("upright")
        #expect(abs(settled(rows) { $0.pitch } - 90) < 2)
        #expect(abs(settled(rows) { $0.gravity.1 } + 1) < 0.03)  // gravity y = −1
    }

    @Test func onItsRightEdgeIsRollPlus90() async throws {
        // Turned 90° clockwise from upright, then laid down: the right edge down is landscape-right's gravity.
        let rows = try await stream("landscape-right")
        #expect(abs(settled(rows) { $0.gravity.0 } - 1) < 0.03)  // gravity x = +1
        // Landscape-right is upright turned clockwise: pitch ≈ 0, roll = +90° (the right edge down).
        #expect(abs(settled(rows) { $0.roll } - 90) < 2)
    }

    @Test func faceUpTopWestIsYawPlus90InANorthFrame() async throws {
        // The `on-back` pose: lying on its back, top pointing west.
        let rows = try await stream("on-back", seconds: 12)
        let yaw = settled(rows) { $0.yaw }
        // The twin's earth field has a declination of +4.5°: magnetic north lies 4.5° east of
        // true north, so a top pointing true west reads 4.5° more than +90° against magnetic north.
        #expect(abs(yaw - 94.5) < 2, "yaw \(yaw)")
        #expect(abs(settled(rows) { $0.gravity.2 } + 1) < 0.03)
    }

    @Test func theGravityTableThroughDeviceMotion() async throws {
        for (scenario, axis, value) in [("upright", 1, -1.0), ("upside-down", 1, 1.0), ("landscape-left", 0, -1.0), ("face-down", 2, 1.0)] {
            let rows = try await stream(scenario, seconds: 5)
            let g = settled(rows) { [$0.gravity.0, $0.gravity.1, $0.gravity.2][axis] }
            #expect(abs(g - value) < 0.03, "\(scenario): gravity[\(axis)] = \(g)")
        }
    }
}
