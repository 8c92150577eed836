import Testing
@testable import IMUEvents

@Suite struct MotionEventTests {
    @Test func jsonLinesHaveTheKeysOutsideChecksRead() {
        #expect(MotionEvent.shake(.began(timestamp: 1.25)).jsonLine == #"{"t":1.250000,"type":"shake","phase":"began"}"#)
        #expect(MotionEvent.shake(.cancelled(timestamp: 7)).jsonLine == #"{"t":7.000000,"type":"shake","phase":"cancelled"}"#)
        #expect(MotionEvent.orientation(.faceUp, timestamp: 0.5).jsonLine == #"{"t":0.500000,"type":"orientation","orientation":"faceUp"}"#)
        #expect(MotionEvent.slap(SlapEvent(direction: .left, timestamp: 2)).jsonLine == #"{"t":2.000000,"type":"slap","direction":"left"}"#)
        #expect(MotionEvent.heading(degrees: 359.996, timestamp: 3).jsonLine == #"{"t":3.000000,"type":"heading","heading_deg":0.00}"#)
    }

    @Test func everyEventNamesItsKind() {
        let events: [MotionEvent] = [
            .shake(.began(timestamp: 1)), .orientation(.faceUp, timestamp: 1), .slap(SlapEvent(direction: .left, timestamp: 1)),
            .heading(degrees: 10, timestamp: 1),
        ]
        #expect(events.map(\.kind) == MotionEvent.Kind.allCases)
        #expect(events.allSatisfy { $0.jsonLine.contains("\"type\":\"\($0.kind.rawValue)\"") })
    }
}
