import ArgumentParser
import Foundation
import IMUDrivers
import IMUTilt
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu demo tilt`: a ball that rolls as the board tilts (UIKit's push behaviour from gravity).
struct TiltDemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tilt",
        abstract: "A ball that rolls across the terminal as the board tilts.", usage: "imu demo tilt [--sim [<scenario>]] [--board <board>] [<options>]",
        discussion: """
            Gravity in the board's plane pushes the ball towards the lower edge (the right edge \
            down rolls it right, the top edge down rolls it up), with the push's angle and \
            magnitude shown; viscosity slows it and it bounces off the edges. q or Ctrl-C quits. \
            With --sim and no scenario the twin tilts around on its own (tilt-around). Piped, \
            one CSV line per frame: t, the push (angle in radians, magnitude), the ball's position \
            (points, y up) and velocity (points/s).

            Examples:
              imu demo tilt --sim
              imu demo tilt --board sense-hat
              imu demo tilt --sim landscape-right --duration 3 | tail -1
            """)

    @OptionGroup var source: IMUSourceOptions

    @Option(parsing: .unconditional, help: "Samples per second.")
    var rate: Double = 100

    @Option(parsing: .unconditional, help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .customLong("dead-zone"), parsing: .unconditional, help: "Tilts below this many degrees do not push.")
    var deadZoneDegrees: Double = 3

    @Option(parsing: .unconditional, help: "How quickly the ball slows down: its velocity falls as e^(−viscosity·t), per second.")
    var viscosity: Double = 1

    /// Frames per second of the animation (and lines per second of the CSV).
    static let framesPerSecond = 30.0
    static let defaultScenario = "tilt-around"

    func validate() throws {
        try SampleRateOption.validate(rate, lowest: 10)
        guard deadZoneDegrees.isFinite, deadZoneDegrees >= 0, deadZoneDegrees < 90 else {
            throw ValidationError("--dead-zone must be from 0 up to 90 degrees, not \(deadZoneDegrees)")
        }
        guard viscosity.isFinite, viscosity >= 0 else {
            throw ValidationError("--viscosity must be 0 or more (per second), not \(viscosity)")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds, not \(duration)") }
    }

    func run() throws {
        StopSignal.install()
        let session = try source.open(defaultScenario: Self.defaultScenario)
        let calibration = try SensorCalibration.forCommand(session.chipIdentity)
        let tilt = TiltPush(deadZoneDegrees: deadZoneDegrees)
        let physics = PhysicsSettings(viscosityPerSecond: viscosity)
        let title = "\(session.driver.model.rawValue) on \(session.bus.name)"

        if isatty(STDOUT_FILENO) != 0 {
            let screen = TerminalScreen()
            defer { screen.restore() }
            var view = TiltDemoView(size: screen.size, source: title)
            var demo = TiltDemo(bounds: view.bounds, tilt: tilt, physics: physics)
            // Keys are looked at after every read, and while the chip is away (an outage) too.
            let quit = {
                // q, Q or Ctrl-C (3); not Escape, which arrow keys send too.
                if screen.keys().contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3].contains($0) }) {
                    StopSignal.request()
                }
            }
            try Self.run(session: session, rate: rate, duration: duration, calibration: calibration, demo: &demo, afterBatch: quit) { demo, _ in
                if let size = screen.size, size != (view.columns, view.rows) {
                    view = TiltDemoView(size: size, source: title)
                    demo.resize(to: view.bounds)
                    screen.clear()
                }
                screen.draw(view.render(ball: demo.ball.position, push: demo.push, tiltDegrees: demo.gravity.map(TiltPush.tiltDegrees)))
                return false
            }
        } else {
            var output = LineOutput()
            defer { output.flush() }
            var demo = TiltDemo(bounds: TiltDemoView(size: nil).bounds, tilt: tilt, physics: physics)
            output.write("t,push_angle_rad,push_magnitude,x,y,vx,vy")
            try Self.run(session: session, rate: rate, duration: duration, calibration: calibration, demo: &demo) { demo, t in
                let ball = demo.ball
                output.write([t, demo.push.angle, demo.push.magnitude, ball.position.x, ball.position.y, ball.velocity.x, ball.velocity.y]
                    .map { number($0, 4) }.joined(separator: ","))
                output.flushIfDue()
                return false
            }
            try output.finish()
        }
    }

    /// The demo's loop on `session`: the engine's device motion (6D) fed to `demo`, and `frame`
    /// called `framesPerSecond` times a second of sample time with the demo and the time since
    /// the start (s); `frame` returns true to stop. `afterBatch` runs after every read (and
    /// every retry while the chip is away). Ends on a stop request (Ctrl-C, a quit key) or
    /// after `duration`.
    static func run(
        session: IMUDevice, rate: Double, duration: Double?, calibration: SensorCalibration,
        demo: inout TiltDemo, afterBatch: @escaping () -> Void = {}, frame: @escaping (inout TiltDemo, Double) -> Bool
    ) throws {
        let engine = MotionEngine(device: session, settings: .init(
            rateHz: rate, duration: duration, calibration: calibration, frame: TiltDemo.frame))
        var start: Double?
        var nextFrame = 0.0
        var current = demo
        // A sample's frame is drawn once its device motion (published after it) is in: at the
        // next sample, or at the end.
        var pending: Double?
        func drawIfDue(_ t: Double) {
            guard t >= nextFrame else { return }
            nextFrame += 1 / framesPerSecond
            if nextFrame <= t { nextFrame = t + 1 / framesPerSecond }  // fallen behind: no burst of frames
            if frame(&current, t) { engine.requestStop() }
        }
        engine.observe([.samples, .motion]) { output in
            switch output {
            case .sample(let raw):
                if let t = pending { drawIfDue(t) }
                if start == nil { start = raw.timestamp }
                pending = raw.timestamp - start!
            case .motion(let motion):
                current.update(motion)
            default: break
            }
        }
        let dropped = try engine.runForCommand(flush: afterBatch)
        if let t = pending { drawIfDue(t) }
        demo = current
        MotionEngine.reportLost(dropped)
    }
}

extension TiltDemoView {
    /// The view for a terminal of `size`, the standard 80 × 24 when it does not say.
    init(size: (columns: Int, rows: Int)?, source: String = "") {
        let size = size ?? Self.standardSize
        self.init(columns: size.columns, rows: size.rows, source: source)
    }
}
