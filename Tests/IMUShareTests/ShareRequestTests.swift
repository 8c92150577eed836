import Testing
@testable import IMUShare

@Suite struct ShareRequestTests {
    func parse(_ text: String) throws(RequestError) -> IdentifiedRequest { try IdentifiedRequest.parse(Array(text.utf8)) }

    func problem(_ text: String) -> RequestError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func subscriptionsWithTheirOptions() throws {
        #expect(try parse(#"{"op":"subscribe","stream":"motion","rate_hz":50}"#) == IdentifiedRequest(.subscribe(.init(stream: .motion, rate: .rateHz(50)))))
        #expect(try parse(#"{"op":"subscribe","stream":"motion","divisor":4,"id":"a"}"#)
            == IdentifiedRequest(id: .string("a"), .subscribe(.init(stream: .motion, rate: .divisor(4)))))
        #expect(try parse(#" {"op":"subscribe","stream":"motion","interval_ms":20} "#)
            == IdentifiedRequest(.subscribe(.init(stream: .motion, rate: .intervalMilliseconds(20)))))
        #expect(try parse(#"{"op":"subscribe","stream":"events","types":["shake","orientation","shake"],"id":7}"#)
            == IdentifiedRequest(id: .number(7), .subscribe(.init(stream: .events, eventTypes: ["shake", "orientation"]))))
        #expect(try parse(#"{"op":"unsubscribe"}"#) == IdentifiedRequest(.unsubscribe(nil)))
        #expect(try parse(#"{"op":"unsubscribe","stream":"health"}"#) == IdentifiedRequest(.unsubscribe(.health)))
        #expect(try parse(#"{"op":"ping"}"#) == IdentifiedRequest(.ping))
        #expect(try parse(#"{"op":"hello"}"#) == IdentifiedRequest(.hello))
        #expect(try parse(#"{"op":"reload-calibration","id":3}"#) == IdentifiedRequest(id: .number(3), .reloadCalibration))
        #expect(problem(#"{"op":"reload-calibration","path":"/etc/passwd"}"#)?.message
            == "unknown key \"path\" in a reload-calibration request; it takes op, id")
    }

    @Test func ratesBecomeDivisorsOfTheEngineRate() {
        #expect(MotionRate.rateHz(50).divisor(engineRateHz: 100) == 2)
        #expect(MotionRate.rateHz(500).divisor(engineRateHz: 100) == 1)
        #expect(MotionRate.intervalMilliseconds(100).divisor(engineRateHz: 100) == 10)
        #expect(MotionRate.divisor(3).divisor(engineRateHz: 100) == 3)
    }

    /// Whatever rate and engine rate reach it (even ones the validator refuses), the divisor is a
    /// whole number from 1 to `MotionRate.maximumDivisor`: it never traps converting to Int.
    @Test func divisorsAreSafeForAnyNumber() {
        let extremes: [Double] = [0, -0.0, 1e-300, 1e-20, -5, 1e30, 1e308, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for engine in extremes + [100] {
            for given in extremes + [50] {
                for rate in [MotionRate.rateHz(given), .intervalMilliseconds(given)] {
                    let divisor = rate.divisor(engineRateHz: engine)
                    #expect((1...MotionRate.maximumDivisor).contains(divisor), "\(rate) at \(engine) Hz → \(divisor)")
                }
            }
        }
        #expect(MotionRate.rateHz(1e-20).divisor(engineRateHz: 100) == MotionRate.maximumDivisor)
        #expect(MotionRate.intervalMilliseconds(1e30).divisor(engineRateHz: 100) == MotionRate.maximumDivisor)
        #expect(MotionRate.rateHz(.nan).divisor(engineRateHz: 100) == 1)
        #expect(MotionRate.divisor(0).divisor(engineRateHz: 100) == 1)
        #expect(MotionRate.divisor(.max).divisor(engineRateHz: 100) == MotionRate.maximumDivisor)
    }

    /// Every number is range-checked before it is used: the rates refused are those whose
    /// divisor no engine rate (up to 10 kHz) could turn into a sensible one.
    @Test func ratesOutsideTheirRangesAreRefused() {
        for (text, start) in [
            (#"{"op":"subscribe","stream":"motion","rate_hz":1e-20}"#, "\"rate_hz\" must be from 0.001 to 10000"),
            (#"{"op":"subscribe","stream":"motion","rate_hz":-1}"#, "\"rate_hz\" must be from 0.001 to 10000"),
            (#"{"op":"subscribe","stream":"motion","rate_hz":1e300}"#, "\"rate_hz\" must be from 0.001 to 10000"),
            (#"{"op":"subscribe","stream":"motion","interval_ms":1e30}"#, "\"interval_ms\" must be from 0.1 to 3600000"),
            (#"{"op":"subscribe","stream":"motion","interval_ms":0}"#, "\"interval_ms\" must be from 0.1 to 3600000"),
            (#"{"op":"subscribe","stream":"motion","divisor":1e30}"#, "\"divisor\" must be a whole number from 1 to 10000"),
        ] {
            #expect(problem(text)?.message.hasPrefix(start) == true, "\(text): \(problem(text)?.message ?? "accepted")")
        }
    }

    @Test func mistakesAreNamed() {
        #expect(problem("hello")?.message.hasPrefix("not JSON at byte 0: expected a value") == true)
        #expect(problem(#"{"op":"subscribe","stream":"motion""#)?.message.hasPrefix("not JSON at byte 35: expected ',' or '}'") == true)
        #expect(problem("[1,2]")?.message.hasPrefix("a request is a JSON object, not an array") == true)
        #expect(problem(#"{"stream":"motion"}"#)?.message.hasPrefix("a request needs \"op\": one of hello, ping, reload-calibration, subscribe, unsubscribe") == true)
        #expect(problem(#"{"op":"subscribe","id":3}"#) == RequestError("subscribe needs \"stream\": one of samples, motion, events, health, rules, calibration", id: .number(3)))
        #expect(problem(#"{"op":"subscribe","stream":"gps"}"#)?.message == "\"stream\" must be one of samples, motion, events, health, rules, calibration, not \"gps\"")
        #expect(problem(#"{"op":"subscribe","stream":"motion","rate":5}"#)?.message
            == "unknown key \"rate\" in a subscribe request; it takes op, id, stream, divisor, rate_hz, interval_ms, types")
        #expect(problem(#"{"op":"subscribe","stream":"motion","rate_hz":0}"#)?.message == "\"rate_hz\" must be from 0.001 to 10000 (motion lines a second), not 0")
        #expect(problem(#"{"op":"subscribe","stream":"motion","divisor":1.5}"#)?.message.hasPrefix("\"divisor\" must be a whole number") == true)
        #expect(problem(#"{"op":"subscribe","stream":"samples","divisor":2}"#)?.message.hasPrefix("\"divisor\" applies to the motion stream only") == true)
        #expect(problem(#"{"op":"subscribe","stream":"motion","divisor":2,"rate_hz":5}"#)?.message == "give one of \"divisor\", \"rate_hz\" and \"interval_ms\", not 2")
        #expect(problem(#"{"op":"subscribe","stream":"events","types":["tap"]}"#)?.message
            == "unknown event type \"tap\" in \"types\"; the types are shake, orientation, slap, heading")
        #expect(problem(#"{"op":"ping","id":[1]}"#)?.message == "\"id\" must be a number or a string, not an array")
        #expect(problem(#"{"op":"ping","op":"hello"}"#)?.message.hasPrefix("not JSON at byte 13: expected each member name once") == true)
        #expect(problem(String(repeating: "[", count: 100))?.message.hasPrefix("not JSON at byte 16: expected at most 16 levels") == true)
    }

    func requests(_ text: String) throws(RequestError) -> [IdentifiedRequest] { try IdentifiedRequest.requests(in: Array(text.utf8)) }

    /// The dashboard's list form is an alias: one `op` request per stream named, validated alike.
    @Test func theListFormMeansOneRequestPerStream() throws {
        #expect(try requests(#"{"subscribe":["motion","events","motion"],"rate_hz":50,"events":["shake"],"id":"w"}"#) == [
            IdentifiedRequest(id: .string("w"), .subscribe(.init(stream: .motion, rate: .rateHz(50)))),
            IdentifiedRequest(id: .string("w"), .subscribe(.init(stream: .events, eventTypes: ["shake"]))),
        ])
        #expect(try requests(#"{"subscribe":["health","rules"]}"#) == [
            IdentifiedRequest(.subscribe(.init(stream: .health))), IdentifiedRequest(.subscribe(.init(stream: .rules))),
        ])
        #expect(try requests(#"{"subscribe":["motion"],"interval_ms":20}"#) == [IdentifiedRequest(.subscribe(.init(stream: .motion, rate: .intervalMilliseconds(20))))])
        #expect(try requests(#"{"unsubscribe":["samples","events"]}"#) == [IdentifiedRequest(.unsubscribe(.samples)), IdentifiedRequest(.unsubscribe(.events))])
        // Each op-form request reads as one.
        #expect(try requests(#"{"op":"ping","id":1}"#) == [IdentifiedRequest(id: .number(1), .ping)])
        #expect(try parse(#"{"subscribe":["motion"]}"#) == IdentifiedRequest(.subscribe(.init(stream: .motion))))
        #expect(problem(#"{"subscribe":["motion","events"]}"#)?.message == "one request was expected, not 2 (name one stream)")
        for (text, message) in [
            (#"{"subscribe":["motion"],"unsubscribe":["motion"]}"#, "give one of \"subscribe\" and \"unsubscribe\", not both"),
            (#"{"subscribe":[]}"#, "\"subscribe\" must be a non-empty array of streams from samples, motion, events, health, rules, calibration"),
            (#"{"unsubscribe":"motion"}"#, "\"unsubscribe\" must be a non-empty array of streams from samples, motion, events, health, rules, calibration"),
            (#"{"subscribe":["gps"]}"#, "unknown stream \"gps\" in \"subscribe\"; the streams are samples, motion, events, health, rules, calibration"),
            (#"{"subscribe":[1]}"#, "unknown stream 1 in \"subscribe\"; the streams are samples, motion, events, health, rules, calibration"),
            (#"{"subscribe":["events"],"rate_hz":5}"#, "\"rate_hz\" applies to \"motion\" among the streams only (samples come at the engine's rate)"),
            (#"{"subscribe":["motion"],"events":["shake"]}"#, "\"events\" applies to the events stream only"),
            (#"{"subscribe":["motion"],"rate_hz":1e-20}"#, "\"rate_hz\" must be from 0.001 to 10000 (motion lines a second), not 1e-20"),
            (#"{"subscribe":["motion"],"rate_hz":50,"divisor":2}"#, "give one of \"divisor\", \"rate_hz\" and \"interval_ms\", not 2"),
            (#"{"subscribe":["motion"],"types":["shake"]}"#, "unknown key \"types\" in a {\"subscribe\":[…]} request; it takes subscribe, id, divisor, rate_hz, interval_ms, events"),
            (#"{"unsubscribe":["motion"],"rate_hz":5}"#, "unknown key \"rate_hz\" in a {\"unsubscribe\":[…]} request; it takes unsubscribe, id"),
            (#"{"op":"subscribe","stream":"motion","subscribe":["events"]}"#, "unknown key \"subscribe\" in a subscribe request; it takes op, id, stream, divisor, rate_hz, interval_ms, types"),
        ] {
            #expect(problem(text)?.message == message, "\(text)")
        }
        #expect(problem(#"{"subscribe":["gps"],"id":9}"#)?.id == .number(9))
    }

    @Test func theJSONReaderFollowsRFC8259() throws {
        #expect(try JSONText.parse(Array(#""a\u00e9\ud83d\ude00\n""#.utf8)) == .string("aé😀\n"))
        #expect(try JSONText.parse(Array("-0.5e2".utf8)) == .number(-50))
        for bad in ["01", "1.", "+1", "\"\u{01}\"", "\"\\ud800\"", "tru", "{\"a\" 1}", "[1,]", "\"\\x\"", "1e999"] {
            #expect(throws: JSONSyntaxError.self, "\(bad)") { try JSONText.parse(Array(bad.utf8)) }
        }
        #expect(throws: JSONSyntaxError.self) { try JSONText.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func requestsReadBackAsThemselves() throws {
        let requests: [IdentifiedRequest] = [
            IdentifiedRequest(id: .string("x\"y"), .subscribe(.init(stream: .motion, rate: .rateHz(12.5)))),
            IdentifiedRequest(id: .number(-3), .subscribe(.init(stream: .events, eventTypes: ["slap"]))),
            IdentifiedRequest(.subscribe(.init(stream: .motion, rate: .intervalMilliseconds(0.1)))),
            IdentifiedRequest(.unsubscribe(.samples)), IdentifiedRequest(.ping), IdentifiedRequest(.hello),
        ]
        for request in requests {
            #expect(try parse(request.jsonLine) == request, "\(request.jsonLine)")
        }
    }
}
