import IMUGeometry
import PropertyBased
import Testing
@testable import IMUTilt

/// The stepper: energy never grows with damping, the item never leaves its bounds, collisions
/// reflect, the fixed step makes the sensor's rate irrelevant, and a push moves the item its way.
@Suite struct PhysicsStepperTests {
    static let bounds = PhysicsBounds(width: 160, height: 90)

    /// Energy per unit mass under a constant push: kinetic plus the push's potential, −a·x.
    static func energy(_ body: Body, acceleration: Vector2) -> Double {
        0.5 * body.velocity.dot(body.velocity) - acceleration.dot(body.position)
    }

    static let coordinate = Gen.double(in: 0...1)
    static let component = Gen.double(in: -300...300)

    @Test("with damping the energy never grows, and the item never leaves its bounds")
    func energyNeverGrows() async {
        await propertyCheck(
            count: 200, input: Self.coordinate, Self.coordinate, Self.component, Self.component, Self.component, Self.component,
            Gen.double(in: 0.05...3), Gen.double(in: 0.3...1)
        ) { fx, fy, vx, vy, ax, ay, viscosity, restitution in
            let settings = PhysicsSettings(viscosityPerSecond: viscosity, restitution: restitution, restingSpeed: 0)
            var body = Body(position: Vector2(fx * 160, fy * 90), velocity: Vector2(vx, vy))
            let a = Vector2(ax, ay)
            var energy = Self.energy(body, acceleration: a)
            for n in 0..<2000 {
                body = PhysicsStepper.step(body, acceleration: a, settings: settings, bounds: Self.bounds)
                let next = Self.energy(body, acceleration: a)
                // Rounding of Doubles only: a few ulps of the energy's terms.
                let rounding = 1e-12 * (abs(energy) + 0.5 * body.velocity.dot(body.velocity) + abs(a.dot(body.position)) + 1)
                #expect(next <= energy + rounding, "step \(n): \(energy) → \(next), \(body)")
                #expect(Self.bounds.contains(body.position), "step \(n): \(body.position) left \(Self.bounds)")
                if next > energy + rounding || !Self.bounds.contains(body.position) { return }
                energy = next
            }
        }
    }

    @Test("without damping and with elastic walls, a free item keeps its speed")
    func elasticWithoutDampingKeepsEnergy() {
        let settings = PhysicsSettings(viscosityPerSecond: 0, restitution: 1, restingSpeed: 0)
        var body = Body(position: Vector2(80, 45), velocity: Vector2(173, -61))
        let speed = body.velocity.length
        var bounces = 0
        for _ in 0..<1200 {
            let before = body.velocity
            body = PhysicsStepper.step(body, acceleration: .zero, settings: settings, bounds: Self.bounds)
            if before.x * body.velocity.x < 0 || before.y * body.velocity.y < 0 { bounces += 1 }
            #expect(abs(body.velocity.length - speed) < 1e-9)
            #expect(Self.bounds.contains(body.position))
        }
        #expect(bounces >= 10, "\(bounces) bounces in 10 s")
    }

    @Test("a collision reflects the speed towards the wall and keeps the speed along it", arguments: [
        // (start, velocity): towards the right, left, top and bottom walls.
        (Vector2(159, 40), Vector2(240, 30)),
        (Vector2(1, 40), Vector2(-240, 30)),
        (Vector2(70, 89), Vector2(-30, 240)),
        (Vector2(70, 1), Vector2(-30, -240)),
    ])
    func collisionsReflect(start: Vector2, velocity: Vector2) {
        let settings = PhysicsSettings(viscosityPerSecond: 0, restitution: 1, restingSpeed: 0)
        let after = PhysicsStepper.step(Body(position: start, velocity: velocity), acceleration: .zero, settings: settings, bounds: Self.bounds)
        let hitsX = start.x + velocity.x * settings.timeStep > 160 || start.x + velocity.x * settings.timeStep < 0
        let normal = hitsX ? 0 : 1, along = 1 - normal
        #expect(after.velocity[normal] == -velocity[normal], "\(after)")
        #expect(after.velocity[along] == velocity[along], "\(after)")
        // On the wall it hit.
        let wall = velocity[normal] > 0 ? Self.bounds.maximum[normal] : Self.bounds.minimum[normal]
        #expect(after.position[normal] == wall)
    }

    @Test("restitution keeps that share of the speed towards the wall")
    func restitution() {
        let settings = PhysicsSettings(viscosityPerSecond: 0, restitution: 0.5, restingSpeed: 0)
        let after = PhysicsStepper.step(
            Body(position: Vector2(159.5, 40), velocity: Vector2(120, 0)), acceleration: .zero, settings: settings, bounds: Self.bounds)
        #expect(after.velocity.x == -60 && after.position.x == 160)
    }

    @Test("pushed against a wall that does not bounce it all back, the item comes to rest on it")
    func restsOnAWall() {
        // (Off an elastic wall it bounces on, lower each time, as long as the viscosity lets it.)
        var stepper = PhysicsStepper(bounds: Self.bounds, settings: PhysicsSettings(restitution: 0.5))
        let a = Vector2(100, 0)
        for i in 0...600 { stepper.advance(to: Double(i) / 100, acceleration: a) }
        #expect(stepper.body.position.x == 160 && stepper.body.velocity.x == 0, "\(stepper.body)")
        #expect(abs(stepper.body.position.y - 45) < 1e-12)
    }

    @Test("a push moves the item its way: x = ½at² while it is in the open")
    func pushMoves() {
        let settings = PhysicsSettings(viscosityPerSecond: 0)
        var stepper = PhysicsStepper(bounds: PhysicsBounds(width: 1000, height: 1000), settings: settings)
        let push = Push(angle: .pi / 2, magnitude: 0.5)
        for i in 0...100 { stepper.advance(to: Double(i) / 100, acceleration: push.accelerationPointsPerSecondSquared) }
        // 1 s at 50 points/s² upwards: 25 points (semi-implicit Euler: ½a·t·(t + dt)).
        let rise = stepper.body.position.y - 500
        #expect(abs(rise - 0.5 * 50 * (1 + settings.timeStep)) < 1e-9, "\(rise)")
        #expect(abs(stepper.body.position.x - 500) < 1e-9)
        #expect(abs(stepper.body.velocity.y - 50) < 1e-9)
    }

    @Test("viscosity stops an item that is no longer pushed")
    func viscosityStops() {
        var stepper = PhysicsStepper(
            bounds: PhysicsBounds(width: 10_000, height: 10_000),
            body: Body(position: Vector2(5000, 5000), velocity: Vector2(80, -40)))
        var t = 0.0
        stepper.advance(to: t, acceleration: .zero)
        var positions: [Vector2] = []
        while t < 8 {
            t += 0.01
            stepper.advance(to: t, acceleration: .zero)
            positions.append(stepper.body.position)
        }
        #expect(stepper.body.velocity == .zero)
        // It went 80/viscosity points to the right at most, and stood still over the last seconds.
        #expect(stepper.body.position.x > 5070 && stepper.body.position.x < 5080)
        #expect(positions[positions.count - 300] == positions.last!)
    }

    @Test("the fixed step: a 100 Hz, a 37 Hz and a 1000 Hz sensor move the item alike")
    func independentOfSensorRate() {
        func run(rate: Double) -> PhysicsStepper {
            var stepper = PhysicsStepper(bounds: Self.bounds)
            let a = Push(angle: 0.7, magnitude: 0.8).accelerationPointsPerSecondSquared
            let samples = Int(3 * rate)
            for i in 0...samples { stepper.advance(to: 12.5 + Double(i) / rate, acceleration: a) }
            return stepper
        }
        let a = run(rate: 100), b = run(rate: 37), c = run(rate: 1000)
        #expect(a.steps == 360 && b.steps == 360 && c.steps == 360)
        #expect(a.body == b.body && a.body == c.body, "\(a.body) \(b.body) \(c.body)")
    }

    @Test("after a gap only the catch-up time is stepped")
    func gapIsCapped() {
        var stepper = PhysicsStepper(bounds: Self.bounds)
        stepper.advance(to: 0, acceleration: .zero)
        let taken = stepper.advance(to: 5, acceleration: Vector2(10, 0))
        #expect(taken == 30)
        #expect(stepper.steps == 600)
    }

    @Test("an item outside bounds that shrank is brought back")
    func shrunkBounds() {
        let body = Body(position: Vector2(500, -20), velocity: Vector2(0, 0))
        let after = PhysicsStepper.step(body, acceleration: .zero, settings: PhysicsSettings(), bounds: Self.bounds)
        #expect(after.position == Vector2(160, 0))
    }
}
