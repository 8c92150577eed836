import Foundation
import Testing

/// `imu calibrate` end to end on the twin: the JSON outside checks read, refusals, the stored
/// file and its effect on device motion.
@Suite(.serialized) struct CalibrateTests {
    /// A private configuration directory per test.
    func withConfig(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imu-config-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(directory)
    }

    func json(_ text: String) throws -> [String: Any] {
        let line = try #require(text.split(separator: "\n").last.map(String.init))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func gyroBiasIsMeasuredStillAndRefusedMoving() async throws {
        try await withConfig { config in
            let still = try await imu("calibrate", "gyro", "--sim", "--virtual-time", "--json", environment: ["XDG_CONFIG_HOME": config])
            try #require(still.succeeded, "\(still)")
            let bias = try #require(try json(still.stdout)["bias_rad_s"] as? [Double])
            #expect(bias.count == 3 && bias.contains { abs($0) > 0.001 })  // the typical twin has a few °/s
            #expect(FileManager.default.fileExists(atPath: config + "/imu/lsm9ds1-sim-0x6a.toml"))

            let moving = try await imu("calibrate", "gyro", "--sim", "shake", "--virtual-time", "--json", environment: ["XDG_CONFIG_HOME": config])
            #expect(!moving.succeeded)
            let error = try #require(try json(moving.stdout)["error"] as? String)
            #expect(error.contains("moved"))
        }
    }

    @Test func sixPosesGiveOffsetAndScale() async throws {
        try await withConfig { config in
            let result = try await imu("calibrate", "accel", "--sim", "--virtual-time", "--json", "--no-save", environment: ["XDG_CONFIG_HOME": config])
            try #require(result.succeeded, "\(result)")
            let object = try json(result.stdout)
            let offset = try #require(object["offset_g"] as? [Double]), scale = try #require(object["scale"] as? [Double])
            #expect(offset.allSatisfy { abs($0) < 0.1 } && scale.allSatisfy { abs($0 - 1) < 0.05 })
            #expect(!FileManager.default.fileExists(atPath: config + "/imu"))  // --no-save
        }
    }

    @Test func aCalibratedCompassPointsNorth() async throws {
        try await withConfig { config in
            let env = ["XDG_CONFIG_HOME": config]
            let mag = try await imu("calibrate", "mag", "--sim", "--virtual-time", "--json", environment: env)
            try #require(mag.succeeded, "\(mag)")
            let object = try json(mag.stdout)
            #expect(object["accuracy"] as? String == "high")
            let field = try #require(object["field_uT"] as? Double)
            #expect(abs(field - 49.6) < 1.5)  // the twin's earth field: Berlin, 49.6 µT
            #expect((object["hard_iron_uT"] as? [Double])?.count == 3 && (object["soft_iron"] as? [[Double]])?.count == 3)

            // Face up, top pointing true north; the twin's declination is +4.5°: magnetic heading 355.5°.
            let stream = try await imu("stream", "--sim", "--virtual-time", "--count", "20", "--format", "csv", environment: env)
            try #require(stream.succeeded, "\(stream)")
            let rows = stream.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
            let headings = rows.compactMap { Double($0.split(separator: ",", omittingEmptySubsequences: false)[17]) }
            let mean = headings.reduce(0, +) / Double(headings.count)
            #expect(abs(mean - 355.5) < 3, "heading \(mean)")
            #expect(rows.last?.hasSuffix(",high") == true)
        }
    }

    @Test func showAndResetTheStoredFile() async throws {
        try await withConfig { config in
            let env = ["XDG_CONFIG_HOME": config]
            _ = try await imu("calibrate", "gyro", "--sim", "--virtual-time", environment: env)
            let show = try await imu("calibrate", "show", environment: env)
            #expect(show.stdout.contains("[gyroscope]") && show.stdout.contains("LSM9DS1 at 0x6a"))
            let reset = try await imu("calibrate", "reset", "--sim", "--virtual-time", environment: env)
            #expect(reset.stdout.contains("removed"))
            let again = try await imu("calibrate", "show", environment: env)
            #expect(again.stdout.contains("no calibration stored"))
        }
    }

    @Test func aDamagedCalibrationIsRefusedWithItsLine() async throws {
        try await withConfig { config in
            let env = ["XDG_CONFIG_HOME": config]
            _ = try await imu("calibrate", "gyro", "--sim", "--virtual-time", environment: env)
            let path = config + "/imu/lsm9ds1-sim-0x6a.toml"
            var text = try String(contentsOfFile: path, encoding: .utf8)
            text = text.replacingOccurrences(of: "bias-rad-s = [", with: "bias-rad-s = [\"x\", ")
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let stream = try await imu("stream", "--sim", "--virtual-time", "--count", "1", "--format", "csv", environment: env)
            #expect(!stream.succeeded)
            #expect(stream.stderr.contains(path + ":") && stream.stderr.contains("bias-rad-s"))
        }
    }
}
