import Testing
import IMUShareClient
@testable import IMUWeb

/// The WebSocket's requests: the local socket's grammar and validator (IMUShare), adapted.
@Suite struct ClientRequestTests {
    func message(_ text: String) -> String {
        if case .failure(let problem) = ClientRequest.parse(text) { return problem.message }
        return "accepted"
    }

    @Test func subscriptionsNameStreamsRateAndEventTypes() throws {
        let request = try ClientRequest.parse(#"{"subscribe":["motion","events"],"rate_hz":50,"events":["shake","slap"]}"#).get()
        #expect(request.action == .subscribe([.motion, .events], motionRate: .rateHz(50), eventTypes: ["shake", "slap"]))
        #expect(try ClientRequest.parse(#"{"unsubscribe":["motion"]}"#).get().action == .unsubscribe([.motion]))
        #expect(try ClientRequest.parse(#"{"subscribe":["rules","calibration","health"]}"#).get().action
            == .subscribe([.rules, .calibration, .health], motionRate: nil, eventTypes: nil))
        // What the page itself sends.
        #expect(try ClientRequest.parse(#"{"subscribe":["motion","events","health","rules","calibration"],"rate_hz":50}"#).get().action
            == .subscribe([.motion, .events, .health, .rules, .calibration], motionRate: .rateHz(50), eventTypes: nil))
    }

    /// The local socket's requests (Docs/protocol.md) mean the same on the WebSocket.
    @Test func theLocalSocketsRequestsAreAccepted() throws {
        #expect(try ClientRequest.parse(#"{"op":"subscribe","stream":"motion","rate_hz":50}"#).get().action
            == .subscribe([.motion], motionRate: .rateHz(50), eventTypes: nil))
        #expect(try ClientRequest.parse(#"{"op":"subscribe","stream":"motion","interval_ms":100}"#).get().action
            == .subscribe([.motion], motionRate: .intervalMilliseconds(100), eventTypes: nil))
        #expect(try ClientRequest.parse(#"{"op":"subscribe","stream":"motion","divisor":5}"#).get().action
            == .subscribe([.motion], motionRate: .divisor(5), eventTypes: nil))
        #expect(try ClientRequest.parse(#"{"op":"subscribe","stream":"events","types":["slap"],"id":7}"#).get().action
            == .subscribe([.events], motionRate: nil, eventTypes: ["slap"]))
        #expect(try ClientRequest.parse(#"{"op":"unsubscribe","stream":"events"}"#).get().action == .unsubscribe([.events]))
        #expect(try ClientRequest.parse(#"{"op":"unsubscribe"}"#).get().action == .unsubscribe(Set(WebStream.allCases)))
        #expect(message(#"{"op":"subscribe"}"#) == "subscribe needs \"stream\": one of samples, motion, events, health, rules, calibration")
        #expect(message(#"{"op":"subscribe","stream":"gps"}"#).hasPrefix("\"stream\" must be one of samples, motion"))
        #expect(message(#"{"op":"subscribe","stream":"events","types":["wave"]}"#).hasPrefix("unknown event type \"wave\""))
        #expect(message(#"{"op":"subscribe","stream":"motion","rate_hz":0}"#).hasPrefix("\"rate_hz\" must be from 0.001 to 10000"))
        // The socket's other requests are not the WebSocket's; a reload is never served here.
        #expect(message(#"{"op":"ping"}"#).hasPrefix("op \"ping\" is not served on the WebSocket"))
        #expect(message(#"{"op":"reload-calibration"}"#).hasPrefix("op \"reload-calibration\" is not served on the WebSocket"))
    }

    @Test func badRequestsSayWhatWasExpected() {
        #expect(message("hello").hasPrefix("not JSON at byte 0"))
        #expect(message("[1]").hasPrefix("a request is a JSON object, not an array"))
        #expect(message("{}").hasPrefix("a request needs \"op\""))
        #expect(message(#"{"subscribe":["motion"],"unsubscribe":["motion"]}"#) == "give one of \"subscribe\" and \"unsubscribe\", not both")
        #expect(message(#"{"subscribe":["gps"]}"#).hasPrefix("unknown stream \"gps\" in \"subscribe\""))
        #expect(message(#"{"subscribe":[]}"#).hasPrefix("\"subscribe\" must be a non-empty array of streams"))
        #expect(message(#"{"subscribe":"motion"}"#).hasPrefix("\"subscribe\" must be a non-empty array of streams"))
        #expect(message(#"{"subscribe":["motion"],"rate_hz":0}"#).hasPrefix("\"rate_hz\" must be from"))
        #expect(message(#"{"subscribe":["motion"],"rate_hz":true}"#) == "\"rate_hz\" must be a number, not a boolean")
        #expect(message(#"{"subscribe":["motion"],"rate_hz":"50"}"#) == "\"rate_hz\" must be a number, not a string")
        #expect(message(#"{"subscribe":["events"],"rate_hz":5}"#).hasPrefix("\"rate_hz\" applies to \"motion\" among the streams only"))
        #expect(message(#"{"subscribe":["events"],"events":["tap"]}"#).hasPrefix("unknown event type \"tap\" in \"events\""))
        #expect(message(#"{"subscribe":["events"],"events":"shake"}"#).hasPrefix("\"events\" must be a non-empty array"))
        #expect(message(#"{"subscribe":["motion"],"rate":50}"#).hasPrefix("unknown key \"rate\" in a {\"subscribe\":[…]} request"))
        // issue 25: numbers a divisor cannot be made of, refused before any conversion.
        #expect(message(#"{"subscribe":["motion"],"rate_hz":1e-20}"#).hasPrefix("\"rate_hz\" must be from 0.001 to 10000"))
        #expect(message(#"{"op":"subscribe","stream":"motion","interval_ms":1e30}"#).hasPrefix("\"interval_ms\" must be from 0.1 to 3600000"))
    }
}
