import IMUGeometry
import IMUTilt
import Testing

/// The example of Docs/tilt.md ("In Swift"), as written there, with its printed lines checked.
@Suite struct DocExampleTests {
    @Test func tiltDocExample() {
        var printed: [String] = []
        func print(_ value: Any) { printed.append("\(value)") }

        let tilt = TiltPush(deadZoneDegrees: 3)
        var stepper = PhysicsStepper(bounds: PhysicsBounds(width: 320, height: 240))  // starts at rest, centred

        // Device motion at 100 Hz with the right edge 20° down (motion.push(tilt) does the same from a DeviceMotion).
        let gravity = Vector3(0.342, 0, -0.940)
        for n in 0...200 {
            let push = tilt.push(gravity: gravity)
            stepper.advance(to: Double(n) / 100, acceleration: push.accelerationPointsPerSecondSquared)
        }
        print(tilt.push(gravity: gravity))     // push 0.0° × 0.306
        print(stepper.body.position.x > 160)   // true: it rolled right

        #expect(printed == ["push 0.0° × 0.306", "true"])
    }
}
