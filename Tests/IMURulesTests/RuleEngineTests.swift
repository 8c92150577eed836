import IMUEvents
import Testing
@testable import IMURules

@Suite struct RuleEngineTests {
    let toggle = Action.gpio(.headerPin(11), .toggle)

    @Test func eventsFireTheRulesThatMatch() {
        var engine = RuleEngine(rules: [
            Rule(name: "shake", trigger: .shake(phase: .ended), actions: [toggle]),
            Rule(name: "down", trigger: .orientation(.faceDown), actions: [toggle]),
            Rule(name: "any turn", trigger: .orientation(nil), actions: [toggle]),
            Rule(name: "right", trigger: .slap(.right), actions: [toggle]),
        ])
        #expect(engine.fire(.shake(.began(timestamp: 1))).isEmpty)
        #expect(engine.fire(.shake(.ended(timestamp: 2))).map(\.name) == ["shake"])
        #expect(engine.fire(.orientation(.faceDown, timestamp: 3)).map(\.name) == ["down", "any turn"])
        #expect(engine.fire(.orientation(.portrait, timestamp: 4)).map(\.name) == ["any turn"])
        #expect(engine.fire(.slap(SlapEvent(direction: .left, timestamp: 5))).isEmpty)
        #expect(engine.fire(.slap(SlapEvent(direction: .right, timestamp: 6))).map(\.name) == ["right"])
    }

    @Test func aRuleCoolingDownDoesNotFire() {
        var engine = RuleEngine(rules: [Rule(name: "slap", trigger: .slap(nil), actions: [toggle], cooldown: 1)])
        #expect(engine.fire(.slap(SlapEvent(direction: .left, timestamp: 10))).count == 1)
        #expect(engine.fire(.slap(SlapEvent(direction: .left, timestamp: 10.5))).isEmpty)
        #expect(engine.fire(.slap(SlapEvent(direction: .right, timestamp: 11.0))).count == 1)
    }
}
