import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

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
            #expect(show.stdout.contains("LSM9DS1 at 0x6a") && show.stdout.contains("gyroscope      bias x "), "\(show)")
            #expect(show.stdout.contains(" °/s at ") && !show.stdout.contains("bias-rad-s"), "\(show)")
            let raw = try await imu("calibrate", "show", "--toml", environment: env)
            #expect(raw.stdout.contains("[gyroscope]") && raw.stdout.contains("bias-rad-s = ["), "\(raw)")
            // The twin's own file with --sim; the other twin chip (the MPU-6050) has none.
            let twin = try await imu("calibrate", "show", "--sim", environment: env)
            #expect(twin.succeeded && twin.stdout.contains("LSM9DS1 at 0x6a"), "\(twin)")
            let other = try await imu("calibrate", "show", "--sim", "--board", "gy-521", environment: env)
            #expect(other.succeeded && other.stdout.contains("no calibration stored for MPU-6050"), "\(other)")
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

/// A calibration file the daemon cannot use (damaged, or written for another chip) leaves it
/// running uncalibrated with a warning naming the file; `imu calibrate show` fails naming it.
@Suite(.serialized) struct UnusableCalibrationTests {
    static let shakeRule = """
        [[rule]]
        name = "relay on shake"
        on = "shake"
          [[rule.action]]
          gpio-pin = 11
          set = "toggle"
        """

    /// A stored gyro calibration of the twin's LSM9DS1, then `damage` applied to its text.
    func withUnusableFile(_ damage: (String) -> String, _ body: ([String: String], String) async throws -> Void) async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("imu-config-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        let env = ["XDG_CONFIG_HOME": config]
        let calibrated = try await imu("calibrate", "gyro", "--sim", "--virtual-time", environment: env)
        try #require(calibrated.succeeded, "\(calibrated)")
        let path = config + "/imu/lsm9ds1-sim-0x6a.toml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let damaged = damage(text)
        try #require(damaged != text)
        try damaged.write(toFile: path, atomically: true, encoding: .utf8)
        try await body(env, path)
    }

    static let damages: [@Sendable (String) -> String] = [
        // A value of the wrong type: damaged.
        { $0.replacingOccurrences(of: "bias-rad-s = [", with: "bias-rad-s = [\"x\", ") },
        // Another board's chip under this chip's name: foreign.
        { $0.replacingOccurrences(of: "board = \"sim\"", with: "board = \"sense-hat\"") },
        // Not a calibration file at all.
        { _ in "\u{7F}ELF\u{1}\u{1}\u{1}\n" },
        // Issue #12: the time that made toml++ abort every command that loads calibration.
        { $0.replacingOccurrences(of: #"calibrated-at = \d{4}-\d\d-\d\dT[0-9:]+Z"#, with: "calibrated-at = 2026-11-22T:3808:49Z", options: .regularExpression) },
    ]

    @Test(arguments: 0..<4) func theDaemonRunsUncalibratedWithAWarning(damage: Int) async throws {
        try await withUnusableFile(Self.damages[damage]) { env, path in
            let rules = FileManager.default.temporaryDirectory.appendingPathComponent("imu-rules-\(UUID()).toml").path
            try Self.shakeRule.write(toFile: rules, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: rules) }
            let run = try await imu("run", "--config", rules, "--sim", "shake", "--virtual-time", "--duration", "4", environment: env)
            #expect(run.succeeded, "\(run)")
            let warning = run.stderr.split(separator: "\n").first { $0.hasPrefix("warning: running uncalibrated") }
            #expect(warning?.contains(path) == true, "\(run.stderr)")
            #expect(run.stderr.contains("calibration=none"),
                    "\(run.stderr)")
            #expect(run.stderr.contains("rule fired"), "\(run.stderr)")
        }
    }

    @Test(arguments: 0..<4) func showFailsNamingTheFile(damage: Int) async throws {
        try await withUnusableFile(Self.damages[damage]) { env, path in
            let show = try await imu("calibrate", "show", environment: env)
            #expect(!show.succeeded, "\(show)")
            #expect(show.stderr.contains(path + ":"), "\(show.stderr)")
            #expect(show.stderr.contains("1 of 1 calibration files cannot be used: " + path), "\(show.stderr)")
        }
    }
}

/// The live coverage display on a terminal (a pseudo-terminal from util-linux's `script`), fed a
/// recorded figure-eight; and the accuracy of a stored compass calibration while a magnet passes.
@Suite(.serialized) struct CalibrationDisplayTests {
    @Test func aRecordedFigureEightShowsCoverageAndAProgressBar() async throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "util-linux's script is needed for a pseudo-terminal")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("imu-tumble-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let recorded = try await imu("record", "--sim", "tumble", "--duration", "30", "--rate", "50", "--output", log, "--virtual-time")
        try #require(recorded.succeeded, "\(recorded)")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        let command = "\(try IMUExecutable.url().path) calibrate mag --replay \(log) --no-save"
        process.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = readToEndOfFile(output.fileHandleForReading)
        process.waitUntilExit()
        let screen = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(screen)")
        // The view redraws in place (cursor home) as coverage grows, with MotionCal's figures
        // and a hint; the coverage shown never goes down.
        let frames = screen.components(separatedBy: "\u{1B}[H").filter { $0.contains("coverage [") }
        #expect(frames.count > 10, "\(screen.suffix(300))")
        #expect(frames.contains { $0.contains("█") && $0.contains("% of 80%") })
        #expect(frames.contains { $0.contains("gaps") && $0.contains("variance") && $0.contains("wobble") && $0.contains("fit error") })
        let shown = frames.compactMap { frame -> Double? in
            guard let range = frame.range(of: "] ") else { return nil }
            return Double(frame[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(shown.count == frames.count && zip(shown, shown.dropFirst()).allSatisfy { $0 <= $1 }, "\(shown)")
        let hints = Set(frames.compactMap { $0.components(separatedBy: "next: ").dropFirst().first?.prefix { $0 != "\u{1B}" && $0 != "\r" } })
        #expect(hints.count >= 2, "the hint never changed: \(hints)")
        #expect(screen.contains("hard iron ") && screen.contains("coverage"))
    }

    @Test func aPassingMagnetLowersTheCompassAccuracyAndItRecovers() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("imu-config-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        let env = ["XDG_CONFIG_HOME": config]
        for step in ["gyro", "mag"] {
            let calibrated = try await imu("calibrate", step, "--sim", "--virtual-time", environment: env)
            try #require(calibrated.succeeded, "\(calibrated)")
        }
        // The magnet scenario: the closest pass at t = 12.5 s (400 µT), gone ±3 s either side.
        let stream = try await imu(
            "stream", "--sim", "magnet", "--virtual-time", "--duration", "25", "--rate", "20", "--format", "csv", environment: env)
        try #require(stream.succeeded, "\(stream)")
        var accuracy: [(t: Double, level: String)] = []
        for line in stream.stdout.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("t,") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            if let t = Double(fields[0]) { accuracy.append((t, String(fields[18]))) }
        }
        func levels(_ range: ClosedRange<Double>) -> Set<String> { Set(accuracy.filter { range.contains($0.t) }.map(\.level)) }
        #expect(levels(3...9) == ["high"])
        #expect(levels(12...14).contains("low"))
        #expect(levels(21...25) == ["high"], "\(accuracy.filter { $0.t > 15 }.map { "\($0.t): \($0.level)" })")
    }
}
