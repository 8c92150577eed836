import IMUEvents
import IMUGeometry
import IMUTwin
import Testing
@testable import IMUCommands

#if canImport(Glibc)
import Glibc
import IMUDevices
import IMUEngine
import IMUFormats
#endif

/// Slaps whose signs come from first principles, through the whole pipeline on the twin
/// (driver, fusion, recognisers; uncalibrated sensors): the device's position in metres along
/// the horizontal line its x axis lies on is given at each time; the kinematic acceleration is
/// its second difference, and Core Motion's user acceleration is its opposite in g. Nothing
/// here comes from the `slap` scenario's code.
@Suite struct SlapPhysicsTests {
    /// One slap: speed up as (1 − cos)/2 over the swing, stop as (1 + cos)/2.
    struct Slap {
        var sign: Double
        var start: Double
        var swingSeconds: Double
        var stopSeconds = 0.04
        var stopPeakG: Double

        func position(_ t: Double) -> Double {
            let v = stopPeakG * 9.80665 * 2 * stopSeconds / .pi
            let s = t - start
            if s <= 0 { return 0 }
            if s < swingSeconds { return sign * v / 2 * (s - swingSeconds / .pi * sin(.pi * s / swingSeconds)) }
            let u = min(s - swingSeconds, stopSeconds)
            return sign * (v * swingSeconds / 2 + v / 2 * (u + stopSeconds / .pi * sin(.pi * u / stopSeconds)))
        }
    }

    /// Six slaps, 2 s apart from t = 2 s, alternating right and left, from light to hard. The
    /// light ones peak at 1.2 g or more as sampled: a 40 ms stop peaking at P is sampled at
    /// ≥ sin(3π/8)·P at 100 Hz and ≥ sin(π/4)·P at 50 Hz.
    static func slaps(rate: Double) -> [Slap] {
        let light = rate >= 100 ? 1.3 : 1.75
        let shapes: [(swing: Double, peak: Double)] = [(0.08, light), (0.12, 2.5), (0.25, 4), (0.1, light), (0.18, light), (0.08, 4)]
        return shapes.enumerated().map { i, shape in
            Slap(sign: i % 2 == 0 ? 1 : -1, start: 2 + 2 * Double(i), swingSeconds: shape.swing, stopPeakG: shape.peak)
        }
    }

    static func scenario(_ slaps: [Slap], held attitude: Quaternion) -> ClosureScenario {
        ClosureScenario(name: "slaps-from-positions", summary: "slaps built from positions") { t in
            let h = 1e-4
            func x(_ t: Double) -> Double { slaps.reduce(0) { $0 + $1.position(t) } }
            let kinematic = (x(t + h) - 2 * x(t) + x(t - h)) / (h * h) / 9.80665
            // The device's x axis in ENU; Core Motion's user acceleration is −a/g.
            let along = attitude.rotate(Vector3(1, 0, 0))
            return MotionTruth(attitude: attitude, userAccelerationG: along * -kinematic)
        }
    }

    @Test("slaps built from positions: once each, the right way, ≤ 0.3 s after they start, 50–400 Hz, upright and flat",
          arguments: [50.0, 100, 200, 400])
    func slapsFromPositions(rate: Double) throws {
        let slaps = Self.slaps(rate: rate)
        for board in EventTrials.boards {
            for (hold, attitude) in [("upright", Pose.upright.attitude), ("flat", Pose.faceUp.attitude)] {
                let events = try EventTrials.events(Self.scenario(slaps, held: attitude), seconds: 14, board: board, rate: rate)
                let reported = events.compactMap { if case .slap(let s) = $0 { s } else { nil } }
                #expect(events.filter { $0.type == "shake" }.isEmpty, "\(board), \(hold), \(rate) Hz: shakes")
                #expect(reported.count == slaps.count, "\(board), \(hold), \(rate) Hz: \(reported)")
                for slap in slaps {
                    let mine = reported.filter { $0.timestamp >= slap.start && $0.timestamp <= slap.start + 0.3 }
                    #expect(mine.map(\.direction) == [slap.sign > 0 ? .right : .left],
                            "\(board), \(hold), \(rate) Hz: slap at \(slap.start) (swing \(slap.swingSeconds) s, \(slap.stopPeakG) g): \(reported)")
                }
            }
        }
    }

    /// The twin's `slap` scenario moves the device the way it names: its user acceleration,
    /// turned back into kinematic acceleration and integrated twice, carries the device toward
    /// +x of its hold for a right slap and comes to rest.
    @Test func theSlapScenarioMovesTheWayItsSlapsAreNamed() {
        let dt = 1e-4
        for index in 0..<9 {
            let (start, direction) = SlapTiming.start(of: index)
            var velocity = Vector3.zero, position = Vector3.zero
            var t = start
            while t < start + 0.5 {
                let truth = ClosureScenario.slap.truth(at: t)
                velocity = velocity + truth.userAccelerationG * (-9.80665 * dt)
                position = position + velocity * dt
                t += dt
            }
            let along = SlapTiming.hold(of: index).rotate(Vector3(1, 0, 0))
            // The lightest (0.08 s swing, 1.2 g stop) moves 1.8 cm.
            #expect(position.dot(along) * direction > 0.015, "slap \(index): moved \(position)")
            #expect(velocity.length < 0.01, "slap \(index): still moving at \(velocity)")
        }
    }

    /// The tap pushes the device into the table: down first (kinematic −z, Core Motion's user
    /// acceleration +z when face up).
    @Test func theTapPushesIntoTheTable() {
        let truth = ClosureScenario.tap.truth(at: 1.0075)
        #expect(truth.userAccelerationG.z > 2.9)
    }
}
