import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// Mistakes on the command line: `imu` must end with a non-zero status and say what is wrong.
@Suite struct UsageErrorTests {
    static let scenarioNames = [
        "still", "face-up", "face-down", "upright", "upside-down", "landscape-left", "landscape-right", "on-back",
        "seed-sequence", "figure-eight", "shake", "slap", "tap", "walk", "magnet", "spin", "tilt", "tilt-around", "tumble",
    ]

    @Test("a scenario without --sim says it needs --sim")
    func scenarioWithoutSim() async throws {
        let result = try await imu("read", "upright", "--virtual-time")
        #expect(!result.signalled && result.status != 0, "\(result)")
        #expect(result.stderr.contains("--sim"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("upright"), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("--rate out of range gives the valid range", arguments: ["0", "-5", "1001", "nan"])
    func rateOutOfRange(rate: String) async throws {
        let result = try await imu("read", "--sim", "--rate=\(rate)", "--virtual-time")
        #expect(!result.signalled && result.status != 0, "\(result)")
        #expect(result.stderr.contains("--rate"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("0.1") && result.stderr.contains("1000"), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("an unknown scenario lists the scenarios")
    func unknownScenario() async throws {
        let result = try await imu("read", "--sim", "upsidedown", "--count", "1", "--virtual-time")
        #expect(!result.signalled && result.status != 0, "\(result)")
        #expect(result.stderr.contains("upsidedown"), "stderr: \(result.stderr)")
        for name in Self.scenarioNames {
            #expect(result.stderr.contains(name), "\(name) missing from: \(result.stderr)")
        }
        #expect(result.stdout.isEmpty)
    }

    @Test("an unknown board lists the boards and suggests the closest")
    func misspelledBoard() async throws {
        let result = try await imu("read", "--sim", "--board", "sense-hatt", "--count", "1", "--virtual-time")
        #expect(!result.signalled && result.status != 0, "\(result)")
        #expect(result.stderr.contains("sense-hatt"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("did you mean `sense-hat`"), "stderr: \(result.stderr)")
        for board in ["gy-521", "berryimu-v2", "adafruit-lsm9ds1", "sim"] {
            #expect(result.stderr.contains(board), "\(board) missing from: \(result.stderr)")
        }
        #expect(result.stdout.isEmpty)
    }
}
