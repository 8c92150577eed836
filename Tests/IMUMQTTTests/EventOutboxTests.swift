import Testing
@testable import IMUMQTT

@Suite struct EventOutboxTests {
    func event(_ n: Int) -> EventOutbox.Message { .init(topic: "e", payload: "\(n)", qos: 1, isEvent: true) }

    @Test func theOldestWaitingIsDroppedAndCounted() {
        var outbox = EventOutbox(limit: 3)
        for n in 1...5 { outbox.append(event(n)) }
        #expect(outbox.count == 3 && outbox.droppedTotal == 2)
        #expect(outbox.nextToSend(window: 20)?.message.payload == "3")
        #expect(outbox.takeDropped() == 2 && outbox.takeDropped() == 0 && outbox.droppedTotal == 2)
        // Home Assistant's copies make room too, but are not counted as lost events.
        outbox.append(.init(topic: "e/shake", payload: "x", qos: 1, isEvent: false))  // 3 goes
        outbox.append(event(6))  // 4 goes
        outbox.append(event(7))  // 5 goes
        #expect(outbox.droppedTotal == 5 && outbox.nextToSend(window: 20)?.message.payload == "x")
        outbox.append(event(8))  // x goes, uncounted
        #expect(outbox.droppedTotal == 5 && outbox.nextToSend(window: 20)?.message.payload == "6")
    }

    /// In flight: libmosquitto resends it after a reconnect, so it is neither handed over again
    /// nor dropped; the oldest waiting one goes instead, and the window bounds what
    /// libmosquitto holds however long the broker is silent.
    @Test func inFlightMessagesStayUntilAcknowledged() {
        var outbox = EventOutbox(limit: 4)
        for n in 1...4 { outbox.append(event(n)) }
        for id in Int32(1)...2 {
            let next = outbox.nextToSend(window: 2)!
            outbox.handedOver(at: next.index, messageID: id)
        }
        #expect(outbox.inFlight == 2 && outbox.nextToSend(window: 2) == nil)  // the window is full
        for n in 5...9 { outbox.append(event(n)) }
        // 1 and 2 on their way, 8 and 9 the newest waiting; 3 to 7 dropped.
        #expect(outbox.count == 4 && outbox.droppedTotal == 5)
        outbox.acknowledged(1)
        #expect(outbox.inFlight == 1 && outbox.nextToSend(window: 2)?.message.payload == "8")
        outbox.acknowledged(1)  // a duplicate acknowledgement changes nothing
        #expect(outbox.inFlight == 1 && outbox.count == 3)
        outbox.acknowledged(2)
        #expect(outbox.inFlight == 0 && outbox.count == 2)
    }

    @Test func whenEverythingIsInFlightTheNewMessageIsDropped() {
        var outbox = EventOutbox(limit: 2)
        outbox.append(event(1))
        outbox.append(event(2))
        for id in Int32(1)...2 {
            let next = outbox.nextToSend(window: 20)!
            outbox.handedOver(at: next.index, messageID: id)
        }
        outbox.append(event(3))
        #expect(outbox.count == 2 && outbox.droppedTotal == 1 && outbox.inFlight == 2)
        outbox.acknowledged(2)
        outbox.append(event(4))
        #expect(outbox.nextToSend(window: 20)?.message.payload == "4")
    }

    @Test func inFlightMessagesCanBeHandedOverAgainInOrder() {
        var outbox = EventOutbox(limit: 5)
        for n in 1...3 { outbox.append(event(n)) }
        let next = outbox.nextToSend(window: 20)!
        outbox.handedOver(at: next.index, messageID: 9)
        outbox.handOverInFlightAgain()
        #expect(outbox.inFlight == 0 && outbox.nextToSend(window: 20)?.message.payload == "1")
        outbox.acknowledged(9)  // the first hand-over's late acknowledgement is not this one's
        #expect(outbox.count == 3)
    }

    @Test func qosZeroIsDoneWhenHandedOver() {
        var zero = EventOutbox(limit: 2)
        zero.append(.init(topic: "m", payload: "x", qos: 0, isEvent: false))
        zero.handedOver(at: 0, messageID: 1)
        #expect(zero.count == 0 && zero.inFlight == 0)
    }
}
