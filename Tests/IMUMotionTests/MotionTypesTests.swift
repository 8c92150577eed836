import IMUGeometry
import Testing
@testable import IMUMotion

@Suite struct AttitudeTests {
    @Test func relativeToItselfIsIdentity() {
        let q = Quaternion(axis: Vector3(1, 2, 3), angle: 0.8)
        var attitude = Attitude(quaternion: q, referenceFrame: .xMagneticNorthZVertical)
        attitude.multiply(byInverseOf: attitude)
        #expect(attitude.quaternion.angle(to: .identity) < 1e-9)
    }

    @Test func relativeAttitudeIsTheTurnSinceTheReference() {
        let reference = Attitude(quaternion: Quaternion(axis: Vector3(0, 0, 1), angle: 0.3), referenceFrame: .xArbitraryZVertical)
        // Then the device turns 90° about its own x axis (tilted up to upright).
        let turn = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
        var now = Attitude(quaternion: reference.quaternion * turn, referenceFrame: .xArbitraryZVertical)
        now.multiply(byInverseOf: reference)
        #expect(abs(now.pitch - .pi / 2) < 1e-9)
    }
}

@Suite struct HeadingTests {
    @Test func faceUpTopNorthIsZeroAndTopWestIs270() {
        #expect(Heading.degrees(of: .identity) == 0)
        let west = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)  // yaw +90°: top west
        #expect(abs(Heading.degrees(of: west)! - 270) < 1e-9)
        let east = Quaternion(axis: Vector3(0, 0, 1), angle: -.pi / 2)
        #expect(abs(Heading.degrees(of: east)! - 90) < 1e-9)
    }

    @Test func heldUprightTheTopHasNoHeadingButTheBackDoes() {
        let upright = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)  // top up, back pointing north
        #expect(Heading.degrees(of: upright) == nil)
        #expect(abs(Heading.degrees(of: upright, orientation: .faceUp)! - 0) < 1e-9)
    }

    @Test func trueHeadingAddsTheDeclinationAndWraps() {
        #expect(Heading.trueHeading(magnetic: 358, declinationDegrees: 4.5) == 2.5)
        #expect(Heading.trueHeading(magnetic: 1, declinationDegrees: -3) == 358)
    }

    @Test func theHeadingFilterWaitsForTheMinimumChangeTheShortWayRound() {
        var filter = HeadingFilter(minimumChangeDegrees: 5)
        #expect(filter.filter(358) == 358)
        #expect(filter.filter(1) == nil)      // 3° the short way
        #expect(filter.filter(4) == 4)        // 6°
        var everything = HeadingFilter(minimumChangeDegrees: 0)
        #expect(everything.filter(10) == 10 && everything.filter(10) == 10)
    }
}

@Suite struct AccelerometerFilterTests {
    /// The seeds' "lying on its back" check: the low-passed z crosses −0.8 g once, however much
    /// the table is knocked.
    @Test func lowPassSeesLyingOnItsBackOnceDespiteKnocks() {
        var filter = LowPassFilter(factor: 0.1)
        var onItsBack = false, changes = 0
        for i in 0..<400 {
            // Upright for 2 s, then laid on its back; a 0.6 g knock every 0.25 s.
            var z = i < 200 ? 0.0 : -1.0
            if i % 25 == 0 { z += 0.6 }
            let state = filter.filter(Vector3(0, i < 200 ? -1 : 0, z)).z < -0.8
            if state != onItsBack { changes += 1 }
            onItsBack = state
        }
        #expect(onItsBack && changes == 1)
    }

    @Test func highPassRemovesGravityAndKeepsAShake() {
        var filter = HighPassFilter(factor: 0.1)
        var last = Vector3.zero
        for _ in 0..<200 { last = filter.filter(Vector3(0, 0, -1)) }
        #expect(last.length < 1e-6)
        let shake = filter.filter(Vector3(1.5, 0, -1))
        #expect(shake.x > 1.3)
    }
}
