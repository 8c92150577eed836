import FuzzDriver
import IMURules

/// The rules loader on arbitrary text, with a 40-pin header's pins: an error (with file and
/// line) or rules that only name pins the header has; never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let pins = Set([3, 5, 7, 11, 12, 13, 15, 16, 18, 22])
    do {
        let file = try RulesFile.parse(text, file: "fuzz.toml", headerPins: pins)
        for rule in file.rules {
            precondition(rule.cooldown.isFinite && rule.cooldown >= 0, "cooldown \(rule.cooldown)")
            for case .gpio(.headerPin(let pin), _) in rule.actions {
                precondition(pins.contains(pin), "pin \(pin) accepted but the board has no such pin")
            }
        }
    } catch {
        _ = error.description
    }
    _ = try? RulesFile.parse(text, file: "fuzz.toml", headerPins: nil)
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
