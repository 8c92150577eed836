import IMUBus
import IMUEvents
import IMUKit
import IMUTwin
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// The GPIO chip of the INT line going away while the low-power loop is idle (ENODEV on the
/// line): an outage told in words, the line requested again when the chip is back, the watch
/// armed afresh, and a later shake still wakes the loop. On the twin, in virtual time.
@Suite struct LowPowerGPIOLossTests {
    @Test(arguments: ["sim", "gy-521"])
    func theINTLineIsRequestedAgainWhenItsChipReturns(board: String) throws {
        var motion = EventTrials.ShakeMotion(hertz: 4, peakG: 2, atLeast: 2)
        motion.onset = 6
        let session = try Hardware.openSimulated(scenario: motion.scenario, errors: "typical", board: board, virtualTime: true)
        let twin = try #require(session.twin)
        let gpio = try session.headerGPIO()
        let chip = try #require(gpio.chip as? ReacquiringGPIOChip)
        let watch = try EngineLowPower(session: session, rate: 100, duration: 10, gpio: gpio)

        var events: [MotionEvent] = []
        var transitions: [LowPowerAcquisition.Transition] = []
        var removedAt: Double?
        _ = try watch.run(events: { events += $0 }) { transition in
            transitions.append(transition)
            if case .idle = transition, removedAt == nil {
                removedAt = session.clock.now
                twin.gpio.remove(for: 1)
            }
        }

        let names = transitions.map { transition -> String in
            switch transition {
            case .idle: "idle"
            case .woke: "woke"
            case .outage: "outage"
            case .recovered(_, _, let rate): rate == nil ? "recovered awake" : "recovered watching"
            }
        }
        #expect(names == ["idle", "outage", "recovered watching", "woke", "idle"], "\(board): \(transitions.map(\.note))")
        let start = try #require(removedAt)
        for case let .outage(time, problem) in transitions {
            #expect(time - start <= 0.01, "\(board): told \(time - start) s after the removal")
            #expect(problem.contains("ENODEV") && problem.contains("requested again"), "\(problem)")
        }
        // Back at the first retry (50 ms apart) after the chip's return, and a reconfiguration.
        for case let .recovered(time, _, _) in transitions {
            #expect(time - start >= 1 && time - start <= 1.3, "\(board): watching again \(time - start) s after the removal")
        }
        #expect(chip.losses == 1 && chip.reacquisitions == 1)
        let shakes = events.compactMap { if case .shake(let s) = $0 { s } else { nil } }
        #expect(shakes.count == 2, "\(board): \(shakes)")
        guard case .woke(let edge)? = transitions.first(where: { if case .woke = $0 { true } else { false } }) else { return }
        #expect(edge.timestamp >= motion.onset && edge.timestamp - motion.onset <= 0.15)
    }
}
