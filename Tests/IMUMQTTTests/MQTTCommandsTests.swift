import Foundation
import IMUFrontEnd
import Testing
@testable import IMUMQTT

/// The command topic's answers, with a thread standing in for the daemon's loop.
@Suite struct MQTTCommandsTests {
    func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
    }

    /// Polls `request` as the daemon's loop does and answers the first request with `answer`.
    func daemon<A: Sendable>(_ request: DaemonRequest<A>, answers answer: A) -> Thread {
        let thread = Thread {
            while !request.take() { usleep(1000) }
            request.answer(answer)
        }
        thread.start()
        return thread
    }

    @Test func calibrateGyroSaysWhatWasMeasured() throws {
        let commands = MQTTCommands(calibrationTimeout: 60)
        let measured = GyroBiasMeasured(
            biasDegreesPerSecond: (1.23456, -0.5, -0.00001), sampleCount: 301, durationSeconds: 3.01,
            temperatureCelsius: 31.25, savedTo: "/var/lib/imu/lsm9ds1-sim-0x6a.toml")
        _ = daemon(commands.calibrateGyro, answers: .measured(measured))
        let answer = commands.answer(#"{"command": "calibrate-gyro"}"#)
        // The wire module's decimals per quantity (bias 4, duration 3, temperature 2), no -0.
        #expect(answer == #"{"command":"calibrate-gyro","result":"calibrated","bias_deg_s":[1.2346,-0.5000,0.0000],"samples":301,"duration_s":3.010,"temperature_celsius":31.25,"applied":true,"saved":"/var/lib/imu/lsm9ds1-sim-0x6a.toml"}"#)
        _ = try object(answer)
    }

    @Test func aRefusalSaysWhyAndAFailedSaveIsSaid() throws {
        let commands = MQTTCommands(calibrationTimeout: 60)
        _ = daemon(commands.calibrateGyro, answers: .refused(.notStill, detail: "moved during the window: gyro std 12.30 °/s on x exceeds 0.25 °/s"))
        let refused = try object(commands.answer(#"{"command":"calibrate-gyro"}"#))
        #expect(refused["reason"] as? String == "not still")
        #expect(refused["error"] as? String == "not still: moved during the window: gyro std 12.30 °/s on x exceeds 0.25 °/s")
        #expect(refused["result"] == nil)

        let unsaved = GyroBiasMeasured(biasDegreesPerSecond: (0, 0, 0), sampleCount: 300, durationSeconds: 3, saveError: "/var/lib/imu: \"read-only\"")
        _ = daemon(commands.calibrateGyro, answers: .measured(unsaved))
        let answer = try object(commands.answer(#"{"command":"calibrate-gyro"}"#))
        #expect(answer["saved"] is NSNull && answer["save_error"] as? String == "/var/lib/imu: \"read-only\"")
    }

    @Test func reloadAnswersWithTheRuleCountOrTheRefusal() throws {
        let commands = MQTTCommands(reloadTimeout: 60)
        _ = daemon(commands.reload, answers: .reloaded(rules: 3))
        #expect(commands.answer(#"{"command":"reload"}"#) == #"{"command":"reload","result":"reloaded","rules":3}"#)
        _ = daemon(commands.reload, answers: .refused("rules.toml:4:1: expected a table"))
        #expect(commands.answer(#"{"command":"reload"}"#) == #"{"command":"reload","error":"rules.toml:4:1: expected a table"}"#)
    }

    /// A daemon that never takes the request (low-power sleep, a stuck loop): the asker is told,
    /// and the request is withdrawn, so a later take() does not act on it.
    @Test func aRequestNobodyTakesIsAnsweredAndWithdrawn() throws {
        let commands = MQTTCommands(reloadTimeout: 0.05, calibrationTimeout: 0.05)
        let answer = try object(commands.answer(#"{"command":"calibrate-gyro"}"#))
        #expect(answer["reason"] as? String == "no samples")
        #expect((answer["error"] as? String)?.hasPrefix("no measurement within 0 s") == true)
        #expect(!commands.calibrateGyro.take())
        #expect(try object(commands.answer(#"{"command":"reload"}"#))["error"] as? String == "the daemon did not get to it within 0 s")
        #expect(!commands.reload.take())
    }

    @Test func unknownAndMalformedCommandsAreRefusedWithWhatIsKnown() throws {
        let commands = MQTTCommands()
        let unknown = try object(commands.answer(#"{"command":"self-destruct \"now\""}"#))
        #expect(unknown["command"] as? String == #"self-destruct "now""#)
        #expect(unknown["error"] as? String == #"unknown command; known: "reload", "calibrate-gyro""#)
        for bad in ["", "reload", "[1]", #"{"cmd":"reload"}"#, #"{"command":3}"#, "{\"command\":\"" + String(repeating: "x", count: 5000) + "\"}"] {
            let answer = try object(commands.answer(bad))
            #expect((answer["error"] as? String)?.hasPrefix(#"expected a JSON object like {"command": "reload"}"#) == true, "\(bad.prefix(30))")
        }
    }
}
