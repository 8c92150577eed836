import ArgumentParser
import Foundation
import IMUDrivers
import IMUTilt

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
        guard rate.isFinite, rate >= 10, rate <= 1000 else {
            throw ValidationError("--rate must be between 10 and 1000 samples per second, not \(rate)")
        }
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
        let calibration = try AppliedCalibration(for: session.chipIdentity)
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

    /// The demo's loop on `session`: every sample calibrated and fed to `demo`, and `frame`
    /// called `framesPerSecond` times a second of sample time with the demo and the time since
    /// the start (s); `frame` returns true to stop. `afterBatch` runs after every read (and
    /// every retry while the chip is away). Ends on a stop request (Ctrl-C, a quit key) or
    /// after `duration`.
    static func run(
        session: HardwareSession, rate: Double, duration: Double?, calibration: AppliedCalibration,
        demo: inout TiltDemo, afterBatch: () -> Void = {}, frame: (inout TiltDemo, Double) -> Bool
    ) throws {
        var calibration = calibration
        let stream = SampleStream(session: session, rate: rate, duration: duration)
        _ = try stream.configure()
        var start: Double?
        var nextFrame = 0.0
        let dropped = try stream.run(afterBatch: afterBatch) { raw in
            demo.update(calibration.apply(to: raw))
            let t = raw.timestamp - (start ?? raw.timestamp)
            if start == nil { start = raw.timestamp }
            guard t >= nextFrame else { return false }
            nextFrame += 1 / framesPerSecond
            if nextFrame <= t { nextFrame = t + 1 / framesPerSecond }  // fallen behind: no burst of frames
            return frame(&demo, t)
        }
        SampleStream.reportLost(dropped)
    }
}

extension TiltDemoView {
    /// The view for a terminal of `size`, the standard 80 × 24 when it does not say.
    init(size: (columns: Int, rows: Int)?, source: String = "") {
        let size = size ?? Self.standardSize
        self.init(columns: size.columns, rows: size.rows, source: source)
    }
}
