import FuzzDriver
import IMUShare

/// The socket's request parser on arbitrary bytes: either a request that, written back as a
/// line, reads as the same request (so what was accepted was understood), or an error with a
/// message a person can read, which the server then writes as a JSON line that is itself valid.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    do {
        let request = try IdentifiedRequest.parse(bytes)
        let again = try IdentifiedRequest.parse(Array(request.jsonLine.utf8))
        precondition(again == request, "reads back differently: \(request.jsonLine)")
    } catch {
        precondition(!error.message.isEmpty, "an error without a message")
        let line = ShareReply.error(error.message, id: error.id)
        precondition(!line.contains("\n"), "an error line with a newline in it")
        guard case .object(let members)? = try? JSONText.parse(Array(line.utf8)), members.first?.0 == "error" else {
            preconditionFailure("the error line is not a JSON object: \(line)")
        }
    }
    return 0
}

imu_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, testOneInput)
