import IMUBoards
import IMUEvents
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine

/// Issue #19 goal 5's "no slaps on shakes, taps, walking, turns and tilts" as the live twin
/// meets it: `imu events --sim shake` samples the twin on the real clock, so where in the motion
/// the fusion's one-second warm-up ends, how the FIFO batches fall and the sensor's errors all
/// vary from run to run. Here they vary by fixed seeds in virtual time: the board is made some
/// seconds before the engine starts (the scenario's phase at the first sample), the clock's
/// sleeps overrun as a real clock's do, the twin's error draws change, at 50 to 400 Hz on both
/// boards. (The shake scenario's first burst is under way when the warm-up ends.)
@Suite struct SlapSweepTests {
    /// One live-like run: `scenario` on `board` with error seed `seed`, the engine starting
    /// `startOffset` s into it, the clock's lateness from `clockSeed`; every event.
    static func events(
        _ scenario: any MotionScenario, seconds: Double, board: String, rate: Double, seed: UInt64, startOffset: Double, clockSeed: UInt64
    ) throws -> [MotionEvent] {
        try run(scenario, seconds: seconds, board: board, rate: rate, seed: seed, startOffset: startOffset, clockSeed: clockSeed).events
    }

    /// The same run's events and its sideways user acceleration (time, device x in g) as the
    /// recognisers saw it.
    static func run(
        _ scenario: any MotionScenario, seconds: Double, board: String, rate: Double, seed: UInt64, startOffset: Double, clockSeed: UInt64
    ) throws -> (events: [MotionEvent], sideways: [(time: Double, g: Double)]) {
        let clock = OverrunningClock(seed: clockSeed)
        let twin = VirtualBoard(profile: try Hardware.profile(named: board), scenario: scenario, errors: .typical, seed: seed, clock: clock)
        clock.advance(by: startOffset)
        let device = try SimulatedHardware.device(of: twin)
        let engine = try MotionEngine.forCommand(device: device, rateHz: rate, duration: seconds, calibrated: false)
        var found: [MotionEvent] = [], sideways: [(time: Double, g: Double)] = []
        engine.observe([.events, .motion]) { output in
            switch output {
            case .event(let event): found.append(event)
            case .motion(let motion): sideways.append((motion.timestamp, motion.userAcceleration.x))
            default: break
            }
        }
        try engine.runForCommand()
        return (found, sideways)
    }

    /// The run's draws: start offset in [0, 4) s (a whole cycle of the shake scenario), error
    /// and clock seeds.
    static func draws(_ index: Int, salt: UInt64) -> (startOffset: Double, seed: UInt64, clockSeed: UInt64) {
        var state = salt &* 0x2545_F491_4F6C_DD1D &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return (4 * Double(next() >> 11) / 9_007_199_254_740_992.0, next() % 1000 + 2, next())
    }

    /// The shake scenario (2.5 Hz, ±1.5 g, 2 s on, 2 s off) and the calm ones, 10 s each from a
    /// drawn start, at every rate on both boards: no slap at all.
    @Test(arguments: [50.0, 100, 200, 400])
    func noSlapsWhenNothingIsSlapped(rate: Double) throws {
        var runs = 0, slapped: [String] = []
        for name in ["shake"] + EventTrials.calmScenarios {
            let scenario = try #require(MotionScenarios.named(name))
            let count = name == "shake" ? 12 : 2
            for board in EventTrials.boards {
                for k in 0..<count {
                    let d = Self.draws(k, salt: UInt64(rate) &+ UInt64(name.utf8.count) &* 977 &+ (board == "sim" ? 0 : 5))
                    let events = try Self.events(
                        scenario, seconds: 10, board: board, rate: rate, seed: d.seed, startOffset: d.startOffset, clockSeed: d.clockSeed)
                    let slaps = events.filter { $0.type == "slap" }
                    runs += 1
                    if !slaps.isEmpty {
                        slapped.append("\(name) on \(board) from \(d.startOffset) s (seed \(d.seed)): \(slaps.map(\.jsonLine))")
                    }
                }
            }
        }
        #expect(slapped.isEmpty, "\(rate) Hz: slaps in \(slapped.count) of \(runs) runs: \(slapped.prefix(6))")
    }

    /// The acceptance's shakes (2.5 to 6 Hz, ±1.5 and ±2.5 g, 0.5 to 4 s, sideways and back and
    /// forth), started from rest after the warm-up, from drawn offsets and clocks at every rate.
    @Test(arguments: [50.0, 100, 200, 400])
    func theAcceptancesShakesGiveNoSlaps(rate: Double) throws {
        var slapped: [String] = []
        for (k, motion) in EventTrials.shakes.enumerated() {
            let d = Self.draws(k, salt: UInt64(rate) &* 13)
            let board = EventTrials.boards[k % EventTrials.boards.count]
            let events = try Self.events(
                motion.scenario, seconds: motion.stop + 1, board: board, rate: rate, seed: d.seed, startOffset: d.startOffset / 8,
                clockSeed: d.clockSeed)
            let slaps = events.filter { $0.type == "slap" }
            if !slaps.isEmpty { slapped.append("\(motion.hertz) Hz ±\(motion.peakG) g \(motion.seconds) s on \(board): \(slaps.map(\.jsonLine))") }
        }
        #expect(slapped.isEmpty, "\(rate) Hz: slaps in \(slapped.count) of \(EventTrials.shakes.count) shakes: \(slapped.prefix(6))")
    }

    /// The slap scenario's nine slaps (hard to light, upright, flat, tilted) on the same
    /// live-like clocks at 50 to 400 Hz: each whose stop peaks at 1.2 g or more as the
    /// recognisers saw it (sideways user acceleration less its level in the 0.3 s before) is
    /// found once, the right way, ≤ 0.3 s after it starts; none is reported twice or wrongly.
    /// (The light ones, 1.2 g at their true peak, are sampled below that now and then.)
    @Test(arguments: [50.0, 100, 200, 400])
    func slapsOnLiveLikeClocksAreFoundOnce(rate: Double) throws {
        var wrong: [String] = [], found = 0, tested = 0, belowFound = 0, below = 0
        for board in EventTrials.boards {
            for k in 0..<2 {
                let d = Self.draws(k, salt: UInt64(rate) &* 101 &+ (board == "sim" ? 0 : 3))
                let (events, sideways) = try Self.run(
                    ClosureScenario.slap, seconds: SlapTiming.start(of: 9).time, board: board, rate: rate, seed: d.seed,
                    startOffset: d.startOffset / 8, clockSeed: d.clockSeed)
                let reported = events.compactMap { if case .slap(let s) = $0 { s } else { nil } }
                for index in 0..<9 {
                    let (start, sign) = SlapTiming.start(of: index)
                    let before = sideways.filter { $0.time >= start - 0.3 && $0.time < start }.map(\.g)
                    let level = before.reduce(0, +) / Double(max(1, before.count))
                    let peak = sideways.filter { $0.time >= start && $0.time < start + 0.5 }.map { abs($0.g - level) }.max() ?? 0
                    let mine = reported.filter { $0.timestamp >= start && $0.timestamp < start + SlapTiming.period }
                    let right = mine.map(\.direction) == [sign > 0 ? .right : .left] && mine[0].timestamp - start <= 0.3
                    if peak >= 1.2 {
                        tested += 1
                        if right { found += 1 } else { wrong.append("slap \(index) on \(board) (run \(k), \(peak) g): \(mine)") }
                    } else {
                        below += 1
                        if right { belowFound += 1 } else if !mine.isEmpty { wrong.append("slap \(index) on \(board) (run \(k), \(peak) g): \(mine)") }
                    }
                }
            }
        }
        #expect(wrong.count == 0, "\(rate) Hz: \(found) of \(tested) found once the right way in time (and \(belowFound) of \(below) sampled under 1.2 g); \(wrong.prefix(6))")
        #expect(tested >= 12, "\(rate) Hz: only \(tested) of 36 slaps peak at 1.2 g or more as sampled")
    }
}
