import Foundation
import FuzzDriver
import IMUFrontEnd
@testable import IMUMQTT

/// The MQTT command topic's parser and answers on arbitrary payloads, decoded as the broker
/// callback decodes them (bytes as UTF-8, invalid sequences replaced). Every message gets one
/// answer that is a JSON object with an `error` (and no `result`) or a `result`; a command's name
/// is echoed at most 40 characters long (plus "…"); a known command is answered under its own
/// name; a name written back as `{"command": name}` reads as the same name; and every refusal
/// reason's answer is a JSON object saying that reason. The daemon never answers here (timeouts
/// of 0 s), so `reload` and `calibrate-gyro` take their "did not get to it" paths at once.
let commands = MQTTCommands(reloadTimeout: 0, calibrationTimeout: 0)

func object(_ json: String, of what: String) -> [String: Any] {
    precondition(!json.contains("\n"), "an answer with a newline in it: \(json)")
    guard let parsed = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
        preconditionFailure("\(what): not a JSON object: \(json)")
    }
    return parsed
}

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parsed = MQTTCommands.parse(text)
    let answer = object(commands.answer(text), of: "the answer")
    let error = answer["error"] as? String
    precondition(error.map { !$0.isEmpty } ?? true, "an empty error: \(answer)")
    switch parsed {
    case .problem(let problem):
        precondition(!problem.isEmpty, "a problem without a message")
        precondition(answer.keys.sorted() == ["error"] && error == problem, "a problem answered as \(answer)")
        precondition(MQTTCommands.commandName(text) == nil, "a name for a message that is not a command")
    case .command(let name):
        precondition(text.utf8.count <= MQTTCommands.maximumBytes, "a command read from \(text.utf8.count) bytes")
        let shown = answer["command"] as? String
        precondition(shown != nil && error != nil && answer["result"] == nil, "a command not refused here: \(answer)")
        precondition(shown!.count <= 41, "a name echoed at \(shown!.count) characters")
        precondition(shown == MQTTCommands.commandName(text), "two names for one command: \(answer)")
        if MQTTCommands.known.contains(name) { precondition(shown == name, "\(name) answered as \(shown!)") }
        // What the answer quotes reads back as the same name (the string writer escapes right).
        let written = JSON.object([("command", JSON.string(name))])
        if written.utf8.count <= MQTTCommands.maximumBytes {
            precondition(MQTTCommands.parse(written) == .command(name), "\(written) reads back differently")
        }
        let refusedReload = object(MQTTCommands.object("reload", ReloadOutcome.refused(name).fields), of: "a reload refusal")
        precondition(refusedReload["error"] as? String == name, "a reload refusal's reason changed: \(refusedReload)")
    }
    for reason in CommandRefusal.allCases {
        let refusal = object(
            MQTTCommands.refusal(reason, command: MQTTCommands.commandName(text), detail: "fuzz"), of: "a \(reason) refusal")
        precondition(refusal["reason"] as? String == reason.rawValue && refusal["error"] as? String == "fuzz", "\(refusal)")
    }
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
