import IMUEvents
import IMUGeometry
import IMUTwin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IMUDevices
import IMUEngine
import IMUFormats

/// The acceptance trials for events, on the twin in virtual time: motions whose onsets
/// and ends are known, run through what `imu events --sim` runs (driver, fusion, recognisers;
/// uncalibrated "typical" sensors), and the events compared with the motion. `imu bench events`
/// prints them; the tests assert the bounds on the same figures.
enum EventTrials {
    /// The boards the trials run on: the twin's own (LSM9DS1, turned) and a GY-521 (MPU-6050).
    static let boards = ["sim", "gy-521"]

    /// Runs `scenario` for `seconds` of virtual time on `board`; returns every event.
    static func events(_ scenario: any MotionScenario, seconds: Double, board: String = "sim", rate: Double = 100) throws -> [MotionEvent] {
        let device = try Hardware.openSimulated(scenario: scenario, errors: "typical", board: board, virtualTime: true)
        let engine = try MotionEngine.forCommand(device: device, rateHz: rate, duration: seconds, calibrated: false)
        var found: [MotionEvent] = []
        engine.observe([.events]) { output in
            if case .event(let event) = output { found.append(event) }
        }
        try engine.runForCommand()
        return found
    }

    // MARK: Shakes

    /// Held upright, still, then shaken along a device axis from `onset` for `halfCycles` half
    /// periods (so it stops at rest), then still again.
    struct ShakeMotion: Sendable {
        var hertz: Double
        var peakG: Double
        var halfCycles: Int
        var axis = Vector3(1, 0, 0)
        var onset = 2.0

        var seconds: Double { Double(halfCycles) / (2 * hertz) }
        var stop: Double { onset + seconds }

        /// Whole half periods covering at least `seconds`.
        init(hertz: Double, peakG: Double, atLeast seconds: Double, axis: Vector3 = Vector3(1, 0, 0)) {
            self.hertz = hertz
            self.peakG = peakG
            halfCycles = Int((seconds * 2 * hertz - 1e-9).rounded(.up))
            self.axis = axis
        }

        var scenario: ClosureScenario {
            let motion = self
            return ClosureScenario(name: "shake-trial", summary: "upright, one shake") { t in
                let attitude = Pose.upright.attitude
                let s = t - motion.onset
                let a = s >= 0 && t < motion.stop ? motion.peakG * sin(2 * .pi * motion.hertz * s) : 0
                return MotionTruth(attitude: attitude, userAccelerationG: attitude.rotate(motion.axis * a))
            }
        }
    }

    /// What the recognisers made of one shake.
    struct ShakeOutcome: Sendable {
        var motion: ShakeMotion
        var board: String
        /// The shake events (orientation events left out).
        var shakes: [ShakeEvent]
        /// Slaps reported during it (there should be none).
        var slaps: Int

        /// `began` − onset and `ended` − stop (s), when the shake was found as one began and one ended.
        var delays: (began: Double, ended: Double)? {
            guard shakes.count == 2, case .began(let b) = shakes[0], case .ended(let e) = shakes[1] else { return nil }
            return (b - motion.onset, e - motion.stop)
        }
    }

    static func run(_ motion: ShakeMotion, board: String) throws -> ShakeOutcome {
        let events = try events(motion.scenario, seconds: motion.stop + 2, board: board)
        return ShakeOutcome(
            motion: motion, board: board,
            shakes: events.compactMap { if case .shake(let s) = $0 { s } else { nil } },
            slaps: events.filter { $0.type == "slap" }.count)
    }

    /// The shakes of the acceptance: hand paces from 2.5 to 6 Hz, moderate and vigorous,
    /// 0.5 to 4 s long, sideways and back-and-forth.
    static var shakes: [ShakeMotion] {
        var all: [ShakeMotion] = []
        for hertz in [2.5, 4, 6] {
            for peak in [1.5, 2.5] {
                for seconds in [0.5, 1, 2, 4] {
                    all.append(ShakeMotion(hertz: hertz, peakG: peak, atLeast: seconds))
                }
                all.append(ShakeMotion(hertz: hertz, peakG: peak, atLeast: 1, axis: Vector3(0, 0, 1)))
            }
        }
        return all
    }

    // MARK: Motions that are not shakes or slaps

    /// The twin's scenarios in which nothing should be a shake or a slap: walking, taps, slow
    /// turns, tilts, the seeds' pose sequence, a figure eight, a tumble.
    static let calmScenarios = ["walk", "tap", "spin", "tilt", "seed-sequence", "figure-eight", "tumble"]

    // MARK: Orientation

    /// The orientation UIKit names for a resting pose.
    static func orientation(of pose: Pose) -> DeviceOrientation {
        DeviceOrientation.allCases.first { $0.gravityDirection.map { $0.dot(pose.gravityG) > 0.9 } ?? false } ?? .unknown
    }

    /// Each turn of the seeds' sequence: when the motion ends, the orientation it ends in, and
    /// the orientation events between the turn's start and 1 s after it ends.
    struct Turn: Sendable {
        var end: Double
        var expected: DeviceOrientation
        var reported: [(orientation: DeviceOrientation, time: Double)]
    }

    static func turns(board: String) throws -> [Turn] {
        let sequence = PoseSequenceScenario.seeds
        let period = sequence.holdSeconds + sequence.transitionSeconds
        let events = try events(sequence, seconds: period * Double(sequence.poses.count), board: board)
        return (0..<(sequence.poses.count - 1)).map { i in
            let start = Double(i) * period + sequence.holdSeconds, end = start + sequence.transitionSeconds
            let reported = events.compactMap { event -> (DeviceOrientation, Double)? in
                guard case let .orientation(o, t) = event, t > start, t <= end + 1 else { return nil }
                return (o, t)
            }
            return Turn(end: end, expected: orientation(of: sequence.poses[i + 1]), reported: reported)
        }
    }

    /// Held upright for 3 s, turned in 1 s to 45° from upright (about x toward face up, or about
    /// z toward landscape), then wobbling ±3° there at 0.5 Hz; the orientation changes after 3 s.
    static func wobble(aboutZ: Bool, board: String, seconds: Double = 20) throws -> [MotionEvent] {
        let scenario = ClosureScenario(name: "wobble", summary: "wobbling ±3° around 45°") { t in
            let degrees = t < 3 ? 0 : t < 4 ? 45 * (t - 3) : 45 + 3 * sin(2 * .pi * 0.5 * (t - 4))
            let angle = degrees * .pi / 180
            let upright = Pose.upright.attitude
            let turn = aboutZ ? Quaternion(axis: Vector3(0, 0, 1), angle: angle) : Quaternion(axis: Vector3(1, 0, 0), angle: -angle)
            return MotionTruth(attitude: upright * turn)
        }
        return try events(scenario, seconds: seconds, board: board).filter {
            if case .orientation(_, let t) = $0 { t > 3 } else { false }
        }
    }

    // MARK: Slaps

    /// Each slap of the `slap` scenario: its start, direction, and the slaps reported from its
    /// start to the next one's.
    struct SlapOutcome: Sendable {
        var start: Double
        var direction: SlapDirection
        var reported: [SlapEvent]
    }

    static func slaps(board: String, count: Int = 9) throws -> (slaps: [SlapOutcome], shakes: Int) {
        let seconds = SlapTiming.start(of: count).time
        let events = try events(ClosureScenario.slap, seconds: seconds, board: board)
        let reported = events.compactMap { if case .slap(let s) = $0 { s } else { nil } }
        let outcomes = (0..<count).map { i in
            let (start, sign) = SlapTiming.start(of: i)
            return SlapOutcome(
                start: start, direction: sign > 0 ? .right : .left,
                reported: reported.filter { $0.timestamp >= start && $0.timestamp < start + SlapTiming.period })
        }
        return (outcomes, events.filter { $0.type == "shake" }.count)
    }
}
