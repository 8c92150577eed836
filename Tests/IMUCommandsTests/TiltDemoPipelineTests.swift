import Foundation
import IMUBus
import IMUGeometry
import IMUTilt
import IMUTwin
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu demo tilt` through the whole pipeline on the twin (virtual time): registers → driver →
/// board mounting → calibration → fusion → push → physics, with the loop the command runs.
/// Tilting the right edge down rolls the ball right, the top edge down rolls it up-screen, and
/// levelling the board stops it.
@Suite struct TiltDemoPipelineTests {
    struct Frame {
        var t: Double
        var position: Vector2
        var velocity: Vector2
        var push: Push
    }

    static func degrees(_ d: Double) -> Double { d * .pi / 180 }

    /// Face up for 2 s (the filter settles), then within 0.5 s tipped by 20° about `axis`
    /// (device axes, horizontal), held; with `levelAfter`, back to level at that time.
    static func tipped(about axis: Vector3, levelAfter: Double? = nil) -> ClosureScenario {
        ClosureScenario(name: "tipped", summary: "face up, then tipped 20°") { t in
            func eased(_ f: Double) -> Double { let f = min(max(f, 0), 1); return f * f * (3 - 2 * f) }
            var share = eased((t - 2) / 0.5)
            if let levelAfter { share -= eased((t - levelAfter) / 0.5) }
            return MotionTruth(attitude: Quaternion(axis: axis, angle: degrees(20) * share))
        }
    }

    /// Right edge down: turned about the device's y axis (positive: x goes down).
    static let rightEdgeDown = Vector3(0, 1, 0)
    /// Top edge down: turned about the device's x axis, negatively (y goes down).
    static let topEdgeDown = Vector3(-1, 0, 0)

    /// The frames of the demo over `seconds` on the `board`'s twin moving through `scenario`,
    /// the ball in a 400 × 400 point arena (room to roll without meeting a wall).
    /// The sensors are calibrated (noise only) unless `errors` says otherwise: an uncalibrated
    /// accelerometer's offsets (up to 0.04 g an axis) turn a 20° push by up to ~9°.
    func run(_ scenario: any MotionScenario, board: String = "sim", errors: SensorErrorModel = .calibrated, seconds: Double) throws -> [Frame] {
        let clock = VirtualClock()
        let profile = try Hardware.profile(named: board)
        let twin = VirtualBoard(profile: profile, scenario: scenario, errors: errors, seed: 5, clock: clock)
        let placement = profile.imus[0]
        let session = IMUDevice(
            bus: twin.bus, clock: clock, board: profile, placement: placement,
            driver: placement.makeDriver(bus: twin.bus, clock: clock), keepAlive: twin)
        var demo = TiltDemo(bounds: PhysicsBounds(width: 400, height: 400))
        var frames: [Frame] = []
        try TiltDemoCommand.run(session: session, rate: 100, duration: seconds, calibration: SensorCalibration(file: nil), demo: &demo) { demo, t in
            frames.append(Frame(t: t, position: demo.ball.position, velocity: demo.ball.velocity, push: demo.push))
            return false
        }
        return frames
    }

    func frame(at t: Double, in frames: [Frame]) throws -> Frame {
        try #require(frames.last { $0.t <= t + 1e-9 })
    }

    /// The push of 20° from level with the default 3° dead zone.
    static let pushOf20Degrees = (sin(degrees(20)) - sin(degrees(3))) / (1 - sin(degrees(3)))

    @Test("right edge down rolls the ball right", arguments: ["sim", "gy-521"])
    func rightEdgeDownRollsRight(board: String) throws {
        let frames = try run(Self.tipped(about: Self.rightEdgeDown), board: board, seconds: 6)
        let level = try frame(at: 1.9, in: frames), held = try frame(at: 5.5, in: frames)
        // Level at first: the ball has not moved from the centre.
        #expect(level.position == Vector2(200, 200), "\(level)")
        // Tipped: pushed along screen x (angle 0) by sin 20° (less the dead zone).
        #expect(abs(held.push.angle) < Self.degrees(1), "\(held.push)")
        #expect(abs(held.push.magnitude - Self.pushOf20Degrees) < 0.01, "\(held.push)")
        #expect(held.position.x - 200 > 40, "\(held.position)")
        #expect(abs(held.position.y - 200) < 0.1 * (held.position.x - 200), "\(held.position)")
        #expect(held.velocity.x > 10)
    }

    @Test("top edge down rolls the ball up-screen", arguments: ["sim", "gy-521"])
    func topEdgeDownRollsUp(board: String) throws {
        let frames = try run(Self.tipped(about: Self.topEdgeDown), board: board, seconds: 6)
        let held = try frame(at: 5.5, in: frames)
        #expect(abs(held.push.angle - .pi / 2) < Self.degrees(1), "\(held.push)")
        #expect(abs(held.push.magnitude - Self.pushOf20Degrees) < 0.01, "\(held.push)")
        #expect(held.position.y - 200 > 40, "\(held.position)")
        #expect(abs(held.position.x - 200) < 0.1 * (held.position.y - 200), "\(held.position)")
    }

    @Test("uncalibrated sensors still roll the ball the right way", arguments: ["sim", "gy-521"])
    func uncalibratedRollsTheRightWay(board: String) throws {
        let right = try frame(at: 5.5, in: try run(Self.tipped(about: Self.rightEdgeDown), board: board, errors: .typical, seconds: 6))
        let up = try frame(at: 5.5, in: try run(Self.tipped(about: Self.topEdgeDown), board: board, errors: .typical, seconds: 6))
        #expect(right.position.x - 200 > 40 && abs(right.position.y - 200) < 0.3 * (right.position.x - 200), "\(right)")
        #expect(up.position.y - 200 > 40 && abs(up.position.x - 200) < 0.3 * (up.position.y - 200), "\(up)")
    }

    @Test("levelling the board stops the ball")
    func levelStops() throws {
        // A calibrated chip: an uncalibrated one may read a level board as tilted by about the
        // dead zone's 3° and keep the ball creeping (honestly).
        let frames = try run(Self.tipped(about: Self.rightEdgeDown, levelAfter: 4), seconds: 12)
        let rolling = try frame(at: 4, in: frames)
        #expect(rolling.velocity.x > 10 && rolling.position.x > 215, "\(rolling)")
        let stopped = try frame(at: 9, in: frames), end = try frame(at: 12, in: frames)
        #expect(end.push.magnitude == 0, "\(end.push)")
        #expect(stopped.velocity == .zero && end.velocity == .zero, "\(stopped) \(end)")
        #expect(stopped.position == end.position)
        // It stopped further right than where it was when the board was levelled.
        #expect(end.position.x > rolling.position.x)
    }

    @Test("tilt-around: the push goes round counter-clockwise with the low edge")
    func tiltAroundPushFollowsTheLowEdge() throws {
        let scenario = try #require(MotionScenarios.named("tilt-around"))
        let frames = try run(scenario, seconds: 17)
        // Every quadrant: the push's angle is the low edge's direction, 360° per 16 s.
        for t in stride(from: 2.0, through: 16, by: 1) {
            let f = try frame(at: t, in: frames)
            let expected = Push(angle: 2 * .pi * f.t / 16, magnitude: 1).vector
            let difference = abs(atan2(f.push.vector.x * expected.y - f.push.vector.y * expected.x, f.push.vector.dot(expected)))
            #expect(difference < Self.degrees(2), "t = \(f.t): \(f.push)")
        }
    }
}
