import IMUEvents
import IMUTwin
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// The issue's timing acceptance on the twin: event timestamps (virtual time) against the
/// motion's own onsets and ends, through the driver, fusion and recognisers with uncalibrated
/// sensors, on both chips. `imu bench events` prints the same figures.
@Suite struct EventTimingTests {
    @Test("every shake of 0.5 s or more: began ≤ 0.3 s after its onset, ended ≤ 0.4 s after it stops", arguments: EventTrials.boards)
    func shakesAreFoundInTime(board: String) throws {
        for motion in EventTrials.shakes {
            let outcome = try EventTrials.run(motion, board: board)
            let name = "\(motion.hertz) Hz ±\(motion.peakG) g for \(motion.seconds) s along \(motion.axis) on \(board)"
            guard let delays = outcome.delays else {
                Issue.record("\(name): expected began then ended, got \(outcome.shakes)")
                continue
            }
            #expect(delays.began >= 0 && delays.began <= 0.3, "\(name): began \(delays.began) s after the onset")
            #expect(delays.ended >= 0 && delays.ended <= 0.4, "\(name): ended \(delays.ended) s after the stop")
            #expect(outcome.slaps == 0, "\(name): \(outcome.slaps) slaps")
        }
    }

    @Test("a 6 s shake is cancelled and does not begin again", arguments: EventTrials.boards)
    func aLongShakeIsCancelled(board: String) throws {
        let motion = EventTrials.ShakeMotion(hertz: 4, peakG: 2, atLeast: 6)
        let outcome = try EventTrials.run(motion, board: board)
        guard outcome.shakes.count == 2, case .began(let began) = outcome.shakes[0], case .cancelled(let cancelled) = outcome.shakes[1] else {
            Issue.record("expected began then cancelled, got \(outcome.shakes)")
            return
        }
        #expect(began - motion.onset <= 0.3)
        #expect(cancelled > began + 5 && cancelled < motion.stop, "cancelled at \(cancelled), the shake stopped at \(motion.stop)")
    }

    @Test("no shakes and no slaps while walking, tapping, turning slowly, tilting", arguments: EventTrials.calmScenarios)
    func calmMotionIsNeitherShakeNorSlap(scenario: String) throws {
        for board in EventTrials.boards {
            let events = try EventTrials.events(MotionScenarios.named(scenario)!, seconds: 30, board: board)
            let wrong = events.filter { $0.type == "shake" || $0.type == "slap" }
            #expect(wrong.isEmpty, "\(scenario) on \(board): \(wrong.map(\.jsonLine))")
        }
    }

    @Test("each turn of the seed sequence: one change, the right name, ≤ 0.3 s after the motion ends", arguments: EventTrials.boards)
    func orientationChangesInTime(board: String) throws {
        let turns = try EventTrials.turns(board: board)
        #expect(turns.count == 5)
        for turn in turns {
            #expect(turn.reported.map(\.orientation) == [turn.expected], "turn ending at \(turn.end) on \(board)")
            if let time = turn.reported.first?.time {
                #expect(time - turn.end <= 0.3, "reported \(time - turn.end) s after the turn ended")
            }
        }
    }

    @Test("wobbling ±3° around 45°: at most one change", arguments: [false, true])
    func wobblingDoesNotFlap(aboutZ: Bool) throws {
        for board in EventTrials.boards {
            let changes = try EventTrials.wobble(aboutZ: aboutZ, board: board)
            #expect(changes.count <= 1, "\(board): \(changes.map(\.jsonLine))")
        }
    }

    @Test("slaps on the twin: the right direction, once each, ≤ 0.3 s after the slap starts, no shakes", arguments: EventTrials.boards)
    func slapsAreReportedOnceInTime(board: String) throws {
        let (slaps, shakes) = try EventTrials.slaps(board: board)
        #expect(shakes == 0)
        for slap in slaps {
            #expect(slap.reported.map(\.direction) == [slap.direction], "slap at \(slap.start) on \(board)")
            if let time = slap.reported.first?.timestamp {
                #expect(time - slap.start >= 0 && time - slap.start <= 0.3, "reported \(time - slap.start) s after the slap began")
            }
        }
    }
}
