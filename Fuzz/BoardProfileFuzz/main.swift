import FuzzDriver
import IMUBoards

/// The board-profile loader on arbitrary text: an error (with file and line) or a profile whose
/// addresses are 7-bit I²C addresses; never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let profile = try BoardProfile.parse(text, name: "fuzz", file: "fuzz.toml")
        for imu in profile.imus {
            precondition(imu.address <= 0x7F && (imu.magnetometerAddress ?? 0) <= 0x7F, "not a 7-bit address: \(imu)")
        }
    } catch {
        _ = error.description
    }
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
