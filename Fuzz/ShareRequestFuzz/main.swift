import FuzzDriver
import IMUShare

/// The request grammar shared by the socket and the dashboard's WebSocket, on arbitrary bytes, in
/// both forms (`{"op":…}` and the list form `{"subscribe":[…],…}`): either requests that, each
/// written back as a line, read as the same request (so what was accepted was understood), with
/// a divisor in range at any engine rate (the conversion that once trapped), or an error with a
/// message a person can read, which the server then writes as a JSON line that is itself valid.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    do {
        let requests = try IdentifiedRequest.requests(in: bytes)
        precondition(!requests.isEmpty, "a line read as no request at all")
        var streams: [ShareStream] = []
        for request in requests {
            let again = try IdentifiedRequest.parse(Array(request.jsonLine.utf8))
            precondition(again == request, "reads back differently: \(request.jsonLine)")
            precondition(request.id == requests[0].id, "one line, two ids")
            switch request.request {
            case .subscribe(let options):
                streams.append(options.stream)
                for engineRateHz in [0.0, 1, 100, 10000, .infinity, .nan] {
                    let divisor = options.rate?.divisor(engineRateHz: engineRateHz) ?? 1
                    precondition((1...MotionRate.maximumDivisor).contains(divisor), "divisor \(divisor) of \(request.jsonLine)")
                }
                precondition(options.rate == nil || options.stream == .motion, "a rate for \(options.stream)")
                precondition(options.eventTypes == nil || options.stream == .events, "event types for \(options.stream)")
            case .unsubscribe(let stream?):
                streams.append(stream)
            default:
                precondition(requests.count == 1, "several requests that are not subscriptions")
            }
        }
        precondition(Set(streams).count == streams.count, "a stream named twice in one line's requests")
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
