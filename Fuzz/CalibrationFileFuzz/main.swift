import FuzzDriver
import IMUCalibration

/// The calibration-file loader on arbitrary text: an error (with file and line) or a file that
/// survives being written and read back (what `imu calibrate` saves must load again, with the
/// same text).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file: CalibrationFile
    do {
        file = try CalibrationFile.parse(text, file: "fuzz.toml")
    } catch {
        _ = error.description
        return 0
    }
    let written = file.tomlText
    do {
        let again = try CalibrationFile.parse(written, file: "written.toml", expecting: file.chip)
        precondition(again.tomlText == written, "the written file reads back differently:\n\(written)\n---\n\(again.tomlText)")
    } catch {
        preconditionFailure("a file that loaded does not load once written: \(error)\n\(written)")
    }
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
