import Foundation
import IMUGeometry
import IMUMotion
import Testing
@testable import IMUTilt

/// The push from gravity: its angle (atan2 in screen axes, y up) in every quadrant, its
/// magnitude against the tilt, the dead zone and the cap.
@Suite struct TiltPushTests {
    static let noDeadZone = TiltPush(deadZoneDegrees: 0)

    /// Gravity (Core Motion's sign, unit length) for a board tilted by `tilt` degrees from face
    /// up, with its lowest point in the direction `downhill` degrees counter-clockwise from the
    /// right edge (seen from the front).
    static func gravity(tilt: Double, downhill: Double) -> Vector3 {
        let t = tilt * .pi / 180, d = downhill * .pi / 180
        return Vector3(sin(t) * cos(d), sin(t) * sin(d), -cos(t))
    }

    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    @Test("the poses push towards the lower edge", arguments: [
        // (gravity, expected angle in degrees)
        (Vector3(1, 0, 0), 0.0),       // right edge down: push right
        (Vector3(0, 1, 0), 90.0),      // top edge down: push up-screen
        (Vector3(-1, 0, 0), 180.0),    // left edge down: push left
        (Vector3(0, -1, 0), -90.0),    // held upright, bottom down: push down-screen
    ])
    func edgesDown(gravity: Vector3, angleDegrees: Double) {
        let push = Self.noDeadZone.push(gravity: gravity)
        #expect(abs(Self.degrees(push.angle) - angleDegrees) < 1e-9, "\(push)")
        #expect(abs(push.magnitude - 1) < 1e-12, "\(push)")
    }

    @Test("the angle is atan2(Δy, Δx) in all four quadrants", arguments: [30.0, 120.0, -150.0, -60.0, 45.0, 135.0, -135.0, -45.0])
    func quadrants(downhill: Double) {
        let push = Self.noDeadZone.push(gravity: Self.gravity(tilt: 20, downhill: downhill))
        #expect(abs(Self.degrees(push.angle) - downhill) < 1e-9, "\(push)")
        // The quadrant of the push vector is the quadrant of the downhill direction.
        let v = push.vector
        #expect((v.x > 0) == (cos(downhill * .pi / 180) > 0) && (v.y > 0) == (sin(downhill * .pi / 180) > 0), "\(v)")
        // On a y-down screen the same push turns the other way.
        #expect(abs(Self.degrees(push.angleWithYDown) + downhill) < 1e-9)
    }

    @Test("the angle stays in (−π, π]: left edge down is +π, not −π")
    func angleRange() {
        let push = Self.noDeadZone.push(gravity: Vector3(-0.5, -0.0, -0.8))
        #expect(push.angle == .pi)
        #expect(Push(angle: .pi, magnitude: 1).angleWithYDown == .pi)
    }

    @Test("magnitude is sin(tilt): 0 level, 0.5 at 30°, 1 at 90°", arguments: [
        (0.0, 0.0), (30.0, 0.5), (45.0, 0.5.squareRoot()), (60.0, 0.75.squareRoot()), (90.0, 1.0),
    ])
    func magnitudeScale(tilt: Double, magnitude: Double) {
        for downhill in stride(from: -180.0, to: 180, by: 45) {
            let push = Self.noDeadZone.push(gravity: Self.gravity(tilt: tilt, downhill: downhill))
            #expect(abs(push.magnitude - magnitude) < 1e-12, "tilt \(tilt)° towards \(downhill)°: \(push)")
        }
    }

    @Test("gravity's length does not matter (an accelerometer reading works too)")
    func lengthIndependent() {
        let unit = Self.noDeadZone.push(gravity: Self.gravity(tilt: 30, downhill: 70))
        let long = Self.noDeadZone.push(gravity: 1.07 * Self.gravity(tilt: 30, downhill: 70))
        #expect(abs(unit.magnitude - long.magnitude) < 1e-12 && abs(unit.angle - long.angle) < 1e-12)
    }

    @Test("magnitude 1 accelerates by 100 points/s²")
    func pointsPerSecondSquared() {
        let a = Push(angle: .pi / 2, magnitude: 1).accelerationPointsPerSecondSquared
        #expect(abs(a.x) < 1e-12 && abs(a.y - 100) < 1e-12)
        let b = Push(angle: .pi / 6, magnitude: 0.5).accelerationPointsPerSecondSquared
        #expect(abs(b.x - 50 * cos(.pi / 6)) < 1e-12 && abs(b.y - 25) < 1e-12)
    }

    @Test("no push inside the dead zone; continuous at its edge; still 1 at 90°")
    func deadZone() {
        let tilt = TiltPush(deadZoneDegrees: 5)
        for degrees in [0.0, 1, 2.5, 4.9] {
            #expect(tilt.push(gravity: Self.gravity(tilt: degrees, downhill: 33)).magnitude == 0, "\(degrees)°")
        }
        let justPast = tilt.push(gravity: Self.gravity(tilt: 5.01, downhill: 33)).magnitude
        #expect(justPast > 0 && justPast < 0.001, "\(justPast)")
        #expect(abs(tilt.push(gravity: Self.gravity(tilt: 90, downhill: 33)).magnitude - 1) < 1e-12)
        // Past the dead zone the magnitude grows with the tilt.
        let magnitudes = stride(from: 6.0, through: 90, by: 6).map { tilt.push(gravity: Self.gravity(tilt: $0, downhill: 33)).magnitude }
        #expect(zip(magnitudes, magnitudes.dropFirst()).allSatisfy { $0 < $1 }, "\(magnitudes)")
        // The direction is still told inside the dead zone.
        #expect(abs(Self.degrees(tilt.push(gravity: Self.gravity(tilt: 2, downhill: 33)).angle) - 33) < 1e-9)
    }

    @Test("the cap limits the magnitude")
    func cap() {
        let tilt = TiltPush(deadZoneDegrees: 0, maximumMagnitude: 0.6)
        #expect(tilt.push(gravity: Self.gravity(tilt: 90, downhill: 10)).magnitude == 0.6)
        #expect(abs(tilt.push(gravity: Self.gravity(tilt: 30, downhill: 10)).magnitude - 0.5) < 1e-12)
    }

    @Test("no gravity, no push")
    func noDirection() {
        #expect(TiltPush().push(gravity: .zero) == .none)
        #expect(TiltPush().push(gravity: Vector3(.nan, 0, -1)) == .none)
    }

    @Test("the tilt in degrees: level 0, an edge 90, face down 180")
    func tiltDegrees() {
        #expect(abs(TiltPush.tiltDegrees(gravity: Vector3(0, 0, -1))) < 1e-12)
        #expect(abs(TiltPush.tiltDegrees(gravity: Self.gravity(tilt: 37, downhill: -100)) - 37) < 1e-9)
        #expect(abs(TiltPush.tiltDegrees(gravity: Vector3(0, 1, 0)) - 90) < 1e-12)
        #expect(abs(TiltPush.tiltDegrees(gravity: Vector3(0, 0, 1)) - 180) < 1e-12)
    }

    @Test("device motion pushes from its gravity")
    func fromDeviceMotion() {
        let motion = DeviceMotion(
            timestamp: 0, attitude: Attitude(quaternion: .identity, referenceFrame: .xArbitraryZVertical),
            rotationRate: .zero, gravity: Self.gravity(tilt: 30, downhill: 90), userAcceleration: .zero)
        let push = motion.push(TiltPush(deadZoneDegrees: 0))
        #expect(abs(push.angle - .pi / 2) < 1e-9 && abs(push.magnitude - 0.5) < 1e-12)
    }
}
