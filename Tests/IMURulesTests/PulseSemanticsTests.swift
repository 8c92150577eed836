import Foundation
import IMUBus
import IMUEvents
import IMUTwin
import Testing
@testable import IMURules

/// Pulses on the twin's GPIO chip with a pulse clock the test moves itself: no timing races.
@Suite struct PulseSemanticsTests {
    let event = MotionEvent.shake(.ended(timestamp: 1))
    let line = 17

    func setUp(_ operations: [GPIOOperation]) throws -> (VirtualGPIOChip, ActionRunner, ManualPulseScheduler, [Rule]) {
        let gpio = VirtualGPIOChip(clock: VirtualClock())
        let rules = operations.enumerated().map { index, operation in
            Rule(name: "r\(index)", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), operation)])
        }
        let clock = ManualPulseScheduler()
        let runner = try ActionRunner(rules: rules, chip: gpio, headerPins: [11: line], pulses: clock)
        return (gpio, runner, clock, rules)
    }

    /// Two 1.5 s pulses 1 s apart (the case): one pulse from 0 to 2.5 s, then low for
    /// good; a later pulse drives the line high again, not low.
    @Test func anOverlappingPulseExtendsTheRunningOne() throws {
        let (gpio, runner, clock, rules) = try setUp([.pulse(milliseconds: 1500)])
        runner.run(rules[0], for: event)
        #expect(gpio.level(of: line))
        clock.advance(byMilliseconds: 1000)
        runner.run(rules[0], for: event)
        #expect(gpio.level(of: line))
        clock.advance(byMilliseconds: 1499)  // t = 2.499 s: the first pulse's end (1.5 s) passed
        #expect(gpio.level(of: line))
        clock.advance(byMilliseconds: 1)  // t = 2.5 s: the second pulse's end
        #expect(!gpio.level(of: line))
        clock.advance(byMilliseconds: 5000)
        #expect(!gpio.level(of: line) && clock.pendingCount == 0)
        runner.run(rules[0], for: event)
        #expect(gpio.level(of: line))
        clock.advance(byMilliseconds: 1500)
        #expect(!gpio.level(of: line))
        // Exactly two rises and two falls after the initial low: never inverted.
        #expect(gpio.history(ofOutput: line).map(\.high) == [false, true, false, true, false])
    }

    /// A pulse's end is told once, after the line is back at rest (the dashboard shows the relay
    /// off again); an extended pulse is told at its later end only, a pulse cut short by `set`
    /// not at all (the firing that set it told the level).
    @Test func aPulsesEndIsToldOnceTheLineIsAtRest() throws {
        let gpio = VirtualGPIOChip(clock: VirtualClock())
        let rule = Rule(name: "p", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .pulse(milliseconds: 100))])
        let set = Rule(name: "s", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .setHigh)])
        let clock = ManualPulseScheduler()
        let told = Told()
        let runner = try ActionRunner(rules: [rule, set], chip: gpio, headerPins: [11: line], pulses: clock,
                                      onPulseEnd: { line in told.add(Int(line.offset), high: line.isHigh) })
        runner.run(rule, for: event)
        clock.advance(byMilliseconds: 50)
        runner.run(rule, for: event)  // extends to 150 ms
        clock.advance(byMilliseconds: 60)
        #expect(told.all.isEmpty)
        clock.advance(byMilliseconds: 40)
        #expect(told.all.map(\.offset) == [line] && told.all.map(\.high) == [false])
        runner.run(rule, for: event)
        runner.run(set, for: event)  // cuts the pulse short
        clock.advance(byMilliseconds: 500)
        #expect(told.all.count == 1)
    }

    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(offset: Int, high: Bool)] = []
        func add(_ offset: Int, high: Bool) { lock.withLock { entries.append((offset, high)) } }
        var all: [(offset: Int, high: Bool)] { lock.withLock { entries } }
    }

    /// A shorter pulse inside a longer one does not cut it short.
    @Test func aShorterPulseInsideALongerOneDoesNotEndIt() throws {
        let clock = ManualPulseScheduler()
        let long = Rule(name: "long", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .pulse(milliseconds: 1000))])
        let short = Rule(name: "short", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .pulse(milliseconds: 100))])
        let gpio = VirtualGPIOChip(clock: VirtualClock())  // kept: its lines refer to it unowned
        let both = try ActionRunner(rules: [long, short], chip: gpio, headerPins: [11: line], pulses: clock)
        both.run(long, for: event)
        clock.advance(byMilliseconds: 200)
        both.run(short, for: event)
        clock.advance(byMilliseconds: 400)
        #expect(gpio.level(of: line))
        clock.advance(byMilliseconds: 400)
        #expect(!gpio.level(of: line))
    }

    /// Toggle during a pulse ends the pulse and flips the resting level: the line stays at the
    /// pulse's active level, the stale end changes nothing, and the next pulse goes the other way.
    @Test func toggleDuringAPulseFlipsTheRestingLevel() throws {
        let (gpio, runner, clock, rules) = try setUp([.pulse(milliseconds: 500), .toggle])
        runner.run(rules[0], for: event)
        clock.advance(byMilliseconds: 100)
        runner.run(rules[1], for: event)
        #expect(gpio.level(of: line) && runner.restingLevel(of: .headerPin(11)) == true)
        clock.advance(byMilliseconds: 1000)
        #expect(gpio.level(of: line))
        runner.run(rules[0], for: event)  // resting high: the pulse goes low and comes back high
        #expect(!gpio.level(of: line))
        clock.advance(byMilliseconds: 500)
        #expect(gpio.level(of: line))
    }

    /// Set low during a pulse ends it low; the pulse's end does not drive it again.
    @Test func setDuringAPulseEndsIt() throws {
        let (gpio, runner, clock, rules) = try setUp([.pulse(milliseconds: 500), .setLow])
        runner.run(rules[0], for: event)
        runner.run(rules[1], for: event)
        #expect(!gpio.level(of: line))
        clock.advance(byMilliseconds: 1000)
        #expect(gpio.history(ofOutput: line).map(\.high) == [false, true, false])
    }

    /// The daemon stopping (SIGTERM) during a pulse: the line ends at its resting level at once,
    /// and nothing moves it afterwards.
    @Test func stopDuringAPulseEndsAtTheRestingLevel() throws {
        let (gpio, runner, clock, rules) = try setUp([.pulse(milliseconds: 1500), .toggle])
        runner.run(rules[0], for: event)
        runner.stop()
        #expect(!gpio.level(of: line))
        clock.advance(byMilliseconds: 2000)
        #expect(gpio.history(ofOutput: line).map(\.high) == [false, true, false])
        // Resting high (toggled), then pulsed low and stopped: back high.
        runner.run(rules[1], for: event)
        runner.run(rules[0], for: event)
        #expect(!gpio.level(of: line))
        runner.stop()
        #expect(gpio.level(of: line))
    }

    /// A reload mid-pulse keeps the line and its pulse: it still ends on time.
    @Test func aReloadKeepsARunningPulse() throws {
        let gpio = VirtualGPIOChip(clock: VirtualClock())
        let clock = ManualPulseScheduler()
        let rule = Rule(name: "p", trigger: .shake(phase: .ended), actions: [.gpio(.headerPin(11), .pulse(milliseconds: 300))])
        let old = try ActionRunner(rules: [rule], chip: gpio, headerPins: [11: line], pulses: clock)
        old.run(rule, for: event)
        let new = try ActionRunner(rules: [rule], chip: gpio, headerPins: [11: line], reusing: old)
        clock.advance(byMilliseconds: 100)
        new.run(rule, for: event)
        clock.advance(byMilliseconds: 300)
        #expect(!gpio.level(of: line))
        #expect(gpio.history(ofOutput: line).map(\.high) == [false, true, false])
    }
}
