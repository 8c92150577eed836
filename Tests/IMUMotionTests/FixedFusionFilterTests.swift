import IMUDrivers
import IMUFusion
import IMUFusionReference
import IMUGeometry
import IMUMotion
import Testing

/// The fixed-point core behind the `FusionFilter` seam: the same estimates as the reference
/// filter's adapter, nothing while warming up, and a reset that starts over.
@Suite struct FixedFusionFilterTests {
    static func samples() -> [(MotionSample, Double)] {
        var truth = Quaternion(axis: Vector3(1, 0.5, 0).normalized, angle: 0.4)
        let rate = Vector3(0.2, -0.3, 0.8)
        let field = Vector3(0, 20, -45)
        var result = [(MotionSample, Double)]()
        for i in 0..<1_500 {
            let dt = 0.01
            if i >= 500 { truth = (truth * Quaternion(rotationVector: rate * dt)).normalized }
            let moving = i >= 500 ? rate : .zero
            result.append((MotionSample(
                timestamp: Double(i) * dt, acceleration: truth.conjugate.rotate(Vector3(0, 0, -1)),
                rotationRate: moving, magneticField: i % 4 == 0 ? truth.conjugate.rotate(field) : nil), dt))
        }
        return result
    }

    @Test func estimatesMatchTheReferenceAdapter() {
        var fixed = FixedFusionFilter(parameters: FixedFusionParameters(FusionParameters()))
        var reference = ReferenceFusionFilter()
        var valid = 0, validityDiffers = 0, restDiffers = 0
        for (sample, dt) in Self.samples() {
            let a = fixed.update(sample, dt: dt)
            let b = reference.update(sample, dt: dt)
            // dt = 0.01 s is 10 737 418.24 LSB of Q2.30 and rounds down, so a time threshold
            // (warm-up 1 s, rest 1.5 s) is crossed one sample later than in Double: allowed once.
            if (a == nil) != (b == nil) { validityDiffers += 1 }
            guard let a, let b else { continue }
            valid += 1
            #expect(a.attitude.angle(to: b.attitude) < 0.05 * .pi / 180)
            #expect((a.gravity - b.gravity).length < 1e-3)
            #expect((a.userAcceleration - b.userAcceleration).length < 1e-3)
            #expect((a.rotationRate - b.rotationRate).length < 1e-3)
            if a.isResting != b.isResting { restDiffers += 1 }
            #expect(a.headingIsMagnetic == b.headingIsMagnetic)
        }
        #expect(valid > 1_000)
        #expect(validityDiffers <= 1 && restDiffers <= 1)
        fixed.reset()
        #expect(fixed.state == FixedFusionState(coefficients: fixed.coefficients))
    }
}
