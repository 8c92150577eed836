import Foundation
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu events` end to end: the built binary on the twin (virtual time), its JSON Lines read
/// back the way outside checks read them.
@Suite struct EventsCommandTests {
    struct Event {
        var t: Double
        var type: String
        var detail: String
    }

    func events(_ result: IMUResult) throws -> [Event] {
        try result.lines.filter { !$0.isEmpty }.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            let type = try #require(object["type"] as? String, "\(line)")
            let detail = (object["phase"] ?? object["orientation"] ?? object["direction"]).map { "\($0)" } ?? ""
            return Event(t: try #require(object["t"] as? Double, "\(line)"), type: type, detail: detail)
        }
    }

    @Test func theShakeScenarioShowsEachShakeBeginningAndEnding() async throws {
        let result = try await imu("events", "--sim", "shake", "--virtual-time", "--format", "jsonl", "--duration", "8")
        try #require(result.succeeded, "\(result)")
        let found = try events(result)
        #expect(found.first.map { "\($0.type) \($0.detail)" } == "orientation portrait")
        // Shaken 2 s on, 2 s off from t = 0; the first burst starts during the filter's warm-up.
        let shakes = found.filter { $0.type == "shake" }
        #expect(shakes.map(\.detail) == ["began", "ended", "began", "ended"], "\(result.stdout)")
        if shakes.count == 4 {
            #expect(shakes[2].t > 4 && shakes[2].t <= 4.3, "began \(shakes[2].t)")
            #expect(shakes[3].t > 6 && shakes[3].t <= 6.4, "ended \(shakes[3].t)")
        }
    }

    @Test func theSlapScenarioShowsEachSlapWithItsDirection() async throws {
        let result = try await imu("events", "--sim", "slap", "--virtual-time", "--format", "jsonl", "--duration", "9")
        try #require(result.succeeded, "\(result)")
        let slaps = try events(result).filter { $0.type == "slap" }
        #expect(slaps.map(\.detail) == ["right", "left", "right", "left"], "\(result.stdout)")
        for (i, slap) in slaps.enumerated() {
            let start = 2.0 + 2 * Double(i)
            #expect(slap.t >= start && slap.t <= start + 0.3, "slap \(i + 1) at \(slap.t)")
        }
    }

    @Test func lowPowerSleepsBetweenShakesAndStillSeesThem() async throws {
        let result = try await imu("events", "--sim", "shake", "--low-power", "--virtual-time", "--format", "jsonl", "--duration", "12")
        try #require(result.succeeded, "\(result)")
        let shakes = try events(result).filter { $0.type == "shake" }
        #expect(shakes.map(\.detail) == ["began", "ended", "began", "ended", "began", "ended"], "\(result.stdout)")
        // Idle after each burst, woken by INT at the next (bursts at 4 s and 8 s).
        let notes = result.stderr.split(separator: "\n")
        #expect(notes.filter { $0.contains("idle at") }.count == 3, "\(result.stderr)")
        #expect(notes.filter { $0.contains("woken at") }.count == 2, "\(result.stderr)")
    }

    @Test func lowPowerOnABoardWithoutAnINTPinSaysWhatIsMissing() async throws {
        let result = try await imu("events", "--sim", "--board", "sense-hat", "--low-power", "--virtual-time", "--duration", "1")
        #expect(!result.succeeded)
        #expect(result.stderr.contains("ATtiny88") && result.stderr.contains("run without --low-power"), "\(result.stderr)")
    }
}
