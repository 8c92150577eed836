import IMUFusion
import PropertyBased
import Testing

@Suite("Fixed-point quaternions, vectors and matrices against Double")
struct FixedQuaternionTests {
    @Test func hamiltonProductIsWithinHalfAnLSB() {
        var rng = SplitMix64(seed: 11)
        var worst = 0.0
        for _ in 0..<10000 {
            let a = randomUnitQuaternion(&rng), b = randomUnitQuaternion(&rng)
            let exact = (ReferenceQuaternion(a) * ReferenceQuaternion(b)).components
            let product = a * b
            for (fixed, reference) in zip([product.w, product.x, product.y, product.z], exact) {
                worst = max(worst, errorInLSB(fixed, reference))
            }
        }
        #expect(worst <= 0.5 + 1e-6, "worst product error \(worst) LSB")
        #expect(FixedQuaternion.identity * .identity == .identity)
        // i · j = k
        let i = FixedQuaternion(w: .zero, x: .one, y: .zero, z: .zero)
        let j = FixedQuaternion(w: .zero, x: .zero, y: .one, z: .zero)
        #expect(i * j == FixedQuaternion(w: .zero, x: .zero, y: .zero, z: .one))
    }

    @Test func rotationIsWithinOneLSBAndMatchesTheConventions() {
        var rng = SplitMix64(seed: 12)
        var worst = 0.0
        for _ in 0..<10000 {
            let q = randomUnitQuaternion(&rng)
            let c = (0..<3).map { _ in Double.random(in: -16...16, using: &rng) }
            let v = FixedVector3(x: Q16(c[0]), y: Q16(c[1]), z: Q16(c[2]))
            let exact = ReferenceQuaternion(q).rotate((v.x.doubleValue, v.y.doubleValue, v.z.doubleValue))
            let rotated = q.rotate(v)
            worst = max(worst, errorInLSB(rotated.x, exact.0), errorInLSB(rotated.y, exact.1), errorInLSB(rotated.z, exact.2))
        }
        #expect(worst <= 1, "worst rotation error \(worst) LSB")
        // 90° about z (device → reference): the device's x axis points along the reference y axis.
        let quarterTurn = FixedQuaternion(axis: FixedVector3(x: .zero, y: .zero, z: .one), angle: Q29.halfPi)
        let xAxis = FixedVector3(x: Q30.one, y: .zero, z: .zero)
        let turned = quarterTurn.rotate(xAxis)
        // (π/2 in Q3.29 and its half are each rounded, ~2 × 10⁻⁹ rad: a few LSB here.)
        #expect(abs(turned.x.raw) <= 5 && abs(turned.y.raw - Q30.one.raw) <= 5 && turned.z == .zero)
        #expect(quarterTurn.rotationMatrix.transposed * turned == quarterTurn.inverseRotate(turned))
    }

    @Test func rotationVectorQuaternionIsExactToTwoLSB() {
        var rng = SplitMix64(seed: 13)
        var worst = 0.0, worstNorm = 0.0
        for _ in 0..<10000 {
            // |θ| up to 1 rad: 35 rad/s (2000 °/s) over 28 ms.
            let axis = (0..<3).map { _ in Double.random(in: -1...1, using: &rng) }
            let n = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).squareRoot()
            guard n > 1e-3 else { continue }
            let angle = Double.random(in: 0...1, using: &rng) * Double.random(in: 0...1, using: &rng)
            let theta = FixedVector3(x: Q29(axis[0] / n * angle), y: Q29(axis[1] / n * angle), z: Q29(axis[2] / n * angle))
            let (tx, ty, tz) = (theta.x.doubleValue, theta.y.doubleValue, theta.z.doubleValue)
            let exactAngle = (tx * tx + ty * ty + tz * tz).squareRoot()
            let s = exactAngle > 0 ? Math.sin(exactAngle / 2) / exactAngle : 0.5
            let q = FixedQuaternion(rotationVector: theta)
            worst = max(worst, errorInLSB(q.w, Math.cos(exactAngle / 2)), errorInLSB(q.x, tx * s),
                        errorInLSB(q.y, ty * s), errorInLSB(q.z, tz * s))
            worstNorm = max(worstNorm, squaredNormErrorInLSB(q))
        }
        #expect(worst <= 2, "worst rotation-vector error \(worst) LSB")
        #expect(worstNorm <= 4, "worst | |q|² − 1 | \(worstNorm) LSB")
        #expect(FixedQuaternion(rotationVector: .zero) == .identity)
        // From a rate and a time step: 1 rad/s about z for 10 ms is 0.01 rad.
        let q = FixedQuaternion(angularRate: FixedVector3(x: .zero, y: .zero, z: .one), interval: Q30(0.01))
        #expect(errorInLSB(q.z, Math.sin(0.005)) <= 2 && errorInLSB(q.w, Math.cos(0.005)) <= 2)
    }

    @Test func normalizationBringsAnyQuaternionWithinFourLSB() {
        var rng = SplitMix64(seed: 14)
        var worst = 0.0
        for _ in 0..<10000 {
            let scale = Int.random(in: 0...30, using: &rng)
            let limit = Int32(truncatingIfNeeded: (Int64(1) << scale) | 1)
            let q = FixedQuaternion(w: Q30(raw: .random(in: -limit...limit, using: &rng)), x: Q30(raw: .random(in: -limit...limit, using: &rng)),
                                    y: Q30(raw: .random(in: -limit...limit, using: &rng)), z: Q30(raw: .random(in: -limit...limit, using: &rng)))
            guard q.squaredNormSignificand >= 1 << 30 else { continue }  // |q| ≥ 2^−14: a direction to keep
            worst = max(worst, squaredNormErrorInLSB(q.normalized()))
        }
        #expect(worst <= 4, "worst | |q|² − 1 | after normalisation \(worst) LSB")
        let extreme = FixedQuaternion(w: .min, x: .min, y: .min, z: .min)
        #expect(squaredNormErrorInLSB(extreme.normalized()) <= 4)
        #expect(FixedQuaternion(w: .zero, x: .zero, y: .zero, z: .zero).normalized() == .identity)
        #expect(FixedQuaternion.identity.normalized() == .identity)
    }

    /// Gyro integration q ← renormalise(q ⊗ δq(ω, dt)), as the filter does every sample.
    /// Renormalisation starts from the exact 64-bit |q|² each time, so the norm after a step
    /// depends only on that step's roundings, not on history: the bound seen over 10⁵ steps is
    /// the bound for any number of steps. `IMU_LONG_TESTS=1` runs the full 10⁸ (a few seconds
    /// in release: `IMU_LONG_TESTS=1 swift test -c release -Xswiftc -enable-testing --filter
    /// normStaysWithinFourLSBOverLongIntegration`).
    @Test func normStaysWithinFourLSBOverLongIntegration() {
        let steps = environment("IMU_LONG_TESTS") == "1" ? 100_000_000 : 100_000
        var rng = SplitMix64(seed: 15)
        var q = FixedQuaternion.identity
        var worstDeviation: UInt64 = 0  // | |q|² − 1 | in Q58
        let one: UInt64 = 1 << 58
        for _ in 0..<steps {
            // Up to ±35 rad/s per axis, dt 1 ms … 20 ms.
            let rate = FixedVector3(x: Q16(raw: Int32(truncatingIfNeeded: rng.next() % 4_587_520) - 2_293_760),
                                    y: Q16(raw: Int32(truncatingIfNeeded: rng.next() % 4_587_520) - 2_293_760),
                                    z: Q16(raw: Int32(truncatingIfNeeded: rng.next() % 4_587_520) - 2_293_760))
            let dt = Q30(raw: 1_073_742 + Int32(truncatingIfNeeded: rng.next() % 20_401_098))
            q = (q * FixedQuaternion(angularRate: rate, interval: dt)).renormalized()
            let squaredNorm = q.squaredNormSignificand
            worstDeviation = max(worstDeviation, squaredNorm > one ? squaredNorm - one : one - squaredNorm)
        }
        let worst = Double(worstDeviation) / Double(1 << 28)
        if steps > 100_000 { print("norm over \(steps) updates: worst | |q|² − 1 | = \(worst) LSB") }
        #expect(worst <= 4, "worst | |q|² − 1 | over \(steps) updates: \(worst) LSB")
    }

    @Test func cheapRenormalizationAgreesWithFullNormalization() {
        var rng = SplitMix64(seed: 16)
        for _ in 0..<10000 {
            // Unit quaternions disturbed by up to 2^14 LSB per component, past the cheap path's
            // 2^−12 window, so both paths are exercised.
            var q = randomUnitQuaternion(&rng)
            let range = Int32(1) << Int.random(in: 0...14, using: &rng)
            q.w.raw &+= .random(in: -range...range, using: &rng)
            q.x.raw &+= .random(in: -range...range, using: &rng)
            q.y.raw &+= .random(in: -range...range, using: &rng)
            q.z.raw &+= .random(in: -range...range, using: &rng)
            let cheap = q.renormalized(), full = q.normalized()
            #expect(squaredNormErrorInLSB(cheap) <= 4)
            for (a, b) in zip([cheap.w, cheap.x, cheap.y, cheap.z], [full.w, full.x, full.y, full.z]) {
                #expect(abs(a.raw - b.raw) <= 1)
            }
        }
        #expect(FixedQuaternion(w: .zero, x: .zero, y: .zero, z: .zero).renormalized() == .identity)
    }

    @Test func vectorOperationsMatchDouble() {
        let a = FixedVector3(x: Q16(1.5), y: Q16(-2), z: Q16(0.25))
        let b = FixedVector3(x: Q16(-0.5), y: Q16(4), z: Q16(3))
        #expect(a.dot(b) == Q16(1.5 * -0.5 + -2 * 4 + 0.25 * 3))
        #expect(a.cross(b) == FixedVector3(x: Q16(-2 * 3 - 0.25 * 4), y: Q16(0.25 * -0.5 - 1.5 * 3), z: Q16(1.5 * 4 - -2 * -0.5)))
        #expect(a + b == FixedVector3(x: Q16(1), y: Q16(2), z: Q16(3.25)))
        #expect(a - b == FixedVector3(x: Q16(2), y: Q16(-6), z: Q16(-2.75)))
        #expect(a.multiplied(by: .half) == FixedVector3(x: Q16(0.75), y: Q16(-1), z: Q16(0.125)))
        #expect(FixedVector3<Q30>(a) == FixedVector3(x: Q30(1.5), y: .min, z: Q30(0.25)))
        #expect(FixedMatrix3.identity * a == a)
    }
}
