import IMUFrontEnd
import Foundation
import IMUDevices
import IMUDrivers
import IMUEngine
import IMUTwin
import Testing
@testable import IMUShare

/// Every subscriber that takes lines gets the line the engine built once per output, the same
/// bytes as the output's own `jsonLine` (what `imu read/stream/events --format jsonl` print),
/// and a socket client receives lines in exactly the wire module's form.
@Suite(.serialized) struct LinesBuiltOnceTests {
    func engine() throws -> MotionEngine {
        let board = VirtualBoard(chip: .lsm9ds1, scenario: MotionScenarios.named("figure-eight")!, errors: .typical, seed: 11, clock: VirtualClock())
        return MotionEngine(
            device: try SimulatedHardware.device(of: board), settings: .init(rateHz: 100, calibration: SensorCalibration(file: nil)))
    }

    @Test func subscribersThatTakeLinesShareTheOutputsOwnLine() throws {
        let engine = try engine()
        let plain = engine.subscribe([.samples, .motion, .events], capacity: 4096)
        let first = engine.subscribe([.samples, .motion, .events], capacity: 4096, lines: true)
        let second = engine.subscribe([.motion], capacity: 4096, motionDivisor: 2, lines: true)
        engine.start()
        defer { engine.stop() }
        var motions = 0
        for _ in 0..<200 {
            let (output, _) = try #require(plain.next(timeoutSeconds: 60))
            let (taken, line, _) = try #require(first.nextLine(timeoutSeconds: 60))
            #expect(line == output.jsonLine && taken.jsonLine == line)
            if case .motion = output {
                if motions % 2 == 0 {
                    let (_, half, _) = try #require(second.nextLine(timeoutSeconds: 60))
                    #expect(half == line)
                }
                motions += 1
            }
        }
        #expect(motions >= 40, "motion lines compared")
    }

    @Test func aSocketClientGetsTheEnginesBytes() throws {
        let engine = try engine()
        let server = ShareServer(settings: .init(path: temporarySocketPath()), feed: EngineFeed(engine: engine))
        try server.start()
        engine.start()
        defer {
            server.stop()
            engine.stop()
        }
        let client = try LineClient(path: server.settings.path)
        _ = client.line()
        client.send(#"{"op":"subscribe","stream":"samples"}"# + "\n")
        #expect(client.object()?["type"] == .string("subscribed"))
        var received: [String] = []
        while received.count < 30, let line = client.line() {
            if line.hasPrefix("{\"t\":") { received.append(line) }
        }
        #expect(received.count == 30)
        // Read back and written again by the wire module: the very same bytes.
        for line in received {
            let sample = try #require(MotionSample(sampleLine: line))
            #expect(MotionOutput.sample(sample).jsonLine == line)
        }
    }
}
