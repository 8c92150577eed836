import IMUFusion
import IMUFusionReference
import Testing

/// Determinism, bounded state, snapshot/restore and the outputs of the fixed-point filter.
@Suite struct FixedFusionStateTests {
    /// The FNV-1a hash of every output of 12 000 steps (60 s at ~200 Hz, rest / slow / fast
    /// turning, 9D). Legitimate as a constant because input and filter are integer-only (see
    /// `FixedFusionIntegerRun`): no platform, compiler or optimisation level may change a bit.
    /// A deliberate change of the arithmetic changes it: record the new value in the same commit.
    static let recordedHash: UInt64 = 0x48f6_a12f_25d5_8fbb

    @Test func sameInputGivesByteIdenticalOutput() {
        var first = FixedFusionIntegerRun()
        var second = FixedFusionIntegerRun()
        first.advance(steps: 12_000)
        second.advance(steps: 12_000)
        #expect(first.hash == second.hash)
        #expect(first.state == second.state)
        print("fixed fusion output hash over 12 000 steps: 0x\(String(first.hash, radix: 16))")
        #expect(first.hash == Self.recordedHash, "recorded 0x\(String(Self.recordedHash, radix: 16))")
    }

    /// 200 000 steps (~17 min of 200 Hz) of rest and fast turning: the quaternions stay unit to a
    /// few LSB, the bias inside its clip, the estimate close to the truth.
    @Test func stateStaysBoundedAndNormalised() {
        var run = FixedFusionIntegerRun()
        run.advance(steps: 200_000)
        let s = run.state
        for q in [s.gyroAttitude, s.inclination, s.heading.heading, s.attitude] {
            let epsilon = Int64(q.squaredNormSignificand) - (Int64(1) << 58)
            #expect(epsilon.magnitude < 16 << 28, "| |q|² − 1 | within 16 LSB of Q2.30")
        }
        let clip = run.coefficients.biasClip
        #expect(s.bias.x.magnitude <= clip.magnitude && s.bias.y.magnitude <= clip.magnitude && s.bias.z.magnitude <= clip.magnitude)
        #expect(s.elapsed <= 1 << 40 && s.magneticDt <= 1 << 40 && s.heading.elapsed <= 1 << 40)
        // Within 2°: θ²/8 = 1.5 × 10⁻⁴, i.e. 163 000 of 2^30.
        #expect(run.misalignment < 163_000, "misalignment \(run.misalignment)")
        let out = s.output(coefficients: run.coefficients)
        #expect(out.isValid)
        #expect(!out.isMagneticallyDisturbed)
        // Bias (0.6, −0.4, 0.5) °/s = (686, −457, 572) Q16: learnt to within 0.05 °/s (57 LSB).
        #expect(abs(out.gyroBias.x.raw - 686) < 57 && abs(out.gyroBias.y.raw + 457) < 57 && abs(out.gyroBias.z.raw - 572) < 57,
                "bias \(out.gyroBias)")
    }

    /// The attitude is renormalised on the decimated samples only (every 8th at 200 Hz); in
    /// between, each product with a normalised step moves | |q|² − 1 | by ≤ ~4.5 LSB (roundings),
    /// typically far less. Checked after every step of rest, slow and fast turning.
    @Test func gyroAttitudeStaysNearlyUnitBetweenRenormalisations() {
        var run = FixedFusionIntegerRun()
        var worst: UInt64 = 0
        for _ in 0..<30_000 {
            run.advance(steps: 1)
            let epsilon = Int64(run.state.gyroAttitude.squaredNormSignificand) - (Int64(1) << 58)
            worst = max(worst, epsilon.magnitude)
        }
        print("gyro attitude: worst | |q|² − 1 | over 30 000 steps: \(Double(worst) / Double(1 << 28)) LSB")
        #expect(worst < 16 << 28, "| |q|² − 1 | within 16 LSB of Q2.30 at every step")
    }

    /// Garbage at full scale — any Q16.16 value on every axis, dt anywhere in Q2.30 including
    /// 0, negative and ≥ 1 s, the magnetometer now and then — never traps (Swift checks integer
    /// overflow in debug builds) and leaves the state unit and clipped.
    @Test func fullScaleGarbageKeepsTheStateBounded() {
        var random = SplitMix64(seed: 11)
        let c = FixedFusionCoefficients()
        var state = FixedFusionState(coefficients: c)
        func anyQ16() -> Q16 {
            let r = Int32(truncatingIfNeeded: random.next())
            return Q16(raw: random.next() % 4 == 0 ? r : r >> Int32(random.next() % 20))
        }
        func anyVector() -> FixedVector3<Q16> { FixedVector3(x: anyQ16(), y: anyQ16(), z: anyQ16()) }
        for _ in 0..<20_000 {
            let dt = Q30(raw: random.next() % 8 == 0 ? Int32(truncatingIfNeeded: random.next()) : Int32(random.next() % 200_000_000))
            let mag = random.next() % 3 == 0 ? anyVector() : nil
            fixedFusionUpdate(state: &state, coefficients: c, gyro: anyVector(), accel: anyVector(), mag: mag, dt: dt)
            _ = state.output(coefficients: c)
        }
        for q in [state.gyroAttitude, state.inclination, state.heading.heading] {
            let epsilon = Int64(q.squaredNormSignificand) - (Int64(1) << 58)
            #expect(epsilon.magnitude < 16 << 28)
        }
        // Magnetometer samples came: the 9D range, which the heading corrections may use.
        #expect(state.heading.isInitialised)
        #expect(state.bias.x.magnitude <= c.magneticBiasClip.magnitude && state.bias.y.magnitude <= c.magneticBiasClip.magnitude
            && state.bias.z.magnitude <= c.magneticBiasClip.magnitude)
    }

    @Test func snapshotRestoreIsACopyAndResetIsANewState() {
        var run = FixedFusionIntegerRun()
        run.advance(steps: 700)
        let snapshot = run.state
        run.advance(steps: 300)
        let after = run.state
        var replay = run
        replay.state = snapshot
        replay.step = 700
        replay.random = 0  // a different noise stream: the point is only that restore continues from the copy
        #expect(replay.state == snapshot)
        #expect(after != snapshot)
        var restored = run
        restored.state.reset(coefficients: run.coefficients)
        #expect(restored.state == FixedFusionState(coefficients: run.coefficients))
        // The update is a pure function of state and sample: the same sample on two copies.
        var a = snapshot, b = snapshot
        let g = FixedVector3(x: Q16(raw: 6554), y: .zero, z: .zero), acc = FixedVector3(x: Q16.zero, y: .zero, z: Q16(raw: -65_536))
        fixedFusionUpdate(state: &a, coefficients: run.coefficients, gyro: g, accel: acc, mag: nil, dt: Q30(raw: 10_737_418))
        fixedFusionUpdate(state: &b, coefficients: run.coefficients, gyro: g, accel: acc, mag: nil, dt: Q30(raw: 10_737_418))
        #expect(a == b && a != snapshot)
        // A dt outside (0, 1 s) leaves the state unchanged.
        var c = snapshot
        fixedFusionUpdate(state: &c, coefficients: run.coefficients, gyro: g, accel: acc, mag: nil, dt: .zero)
        fixedFusionUpdate(state: &c, coefficients: run.coefficients, gyro: g, accel: acc, mag: nil, dt: .one)
        #expect(c == snapshot)
    }

    /// The update tests a dt's validity only outside the gains' range (the per-sample path's
    /// one range test): gains made for 0.99 s would serve up to 1.0098 s by the 2 % rule, so
    /// their range must end below 1 s, or a dt of 1 s (or more) after them would be taken.
    @Test func anInvalidDtIsIgnoredRightAfterGainsNearOneSecond() {
        let c = FixedFusionCoefficients()
        var s = FixedFusionState(coefficients: c)
        let g = FixedVector3(x: Q16(raw: 6554), y: .zero, z: .zero), acc = FixedVector3(x: Q16.zero, y: .zero, z: Q16(raw: -65_536))
        let almostOneSecond = Q30(raw: Int32((Double(1 << 30) * 0.99).rounded()))
        for _ in 0..<3 { fixedFusionUpdate(state: &s, coefficients: c, gyro: g, accel: acc, mag: nil, dt: almostOneSecond) }
        #expect(s.gains.freshDtHigh < 1 << 30)
        let before = s
        for raw in [Int32(1 << 30), Int32(1 << 30) + 5_000_000] {
            fixedFusionUpdate(state: &s, coefficients: c, gyro: g, accel: acc, mag: nil, dt: Q30(raw: raw))
            #expect(s == before, "dt = \(raw) raw (≥ 1 s) changed the state")
        }
    }

    @Test func outputsAtRestHaveCoreMotionsMeaning() {
        var run = FixedFusionIntegerRun()
        run.advance(steps: 1_900)  // 9.5 s at rest
        let out = run.state.output(coefficients: run.coefficients)
        #expect(out.isValid && out.isAtRest)
        // Gravity points down in device axes, the same as the accelerometer's reading at rest.
        let expected = run.truth.inverseRotate(FixedVector3(x: Q30.zero, y: .zero, z: -Q30.one))
        for (g, e) in [(out.gravity.x, expected.x), (out.gravity.y, expected.y), (out.gravity.z, expected.z)] {
            #expect(abs(g.raw - e.raw) < 1 << 23, "gravity within 0.008")
        }
        for u in [out.userAcceleration.x, out.userAcceleration.y, out.userAcceleration.z] {
            #expect(abs(u.raw) < 2_000, "user acceleration ≈ 0 (noise ±0.01 g)")
        }
        #expect(out.headingAccuracy < Q29.pi)
    }

    @Test func sixDimensionalHasNoHeadingAccuracy() {
        var run = FixedFusionIntegerRun()
        run.useMagnetometer = false
        run.advance(steps: 400)
        let out = run.state.output(coefficients: run.coefficients)
        #expect(out.headingAccuracy == .pi)
        #expect(out.isValid)
        #expect(!out.isMagneticallyDisturbed)
    }

    /// The host's 128-bit `wideProduct` and the firmware's split form are the same integer
    /// (the determinism hash holds on both only if they are).
    @Test func wideProductIsTheSplitFormsInteger() {
        var random = SplitMix64(seed: 7)
        for i in 0..<200_000 {
            let gain = Int64(truncatingIfNeeded: random.next()) >> (32 + i % 8)  // |gain| ≤ 2^31
            let value = Int64(truncatingIfNeeded: random.next()) >> (3 + i % 40)  // |value| ≤ 2^60
            let split = (gain &* (value >> 32)) &<< 2 &+ ((gain &* (value & 0xFFFF_FFFF) &+ (1 << 29)) >> 30)
            #expect(wideProduct(gain, value) == split, "gain \(gain) value \(value)")
            if wideProduct(gain, value) != split { break }
        }
    }

    /// The integer defaults are the reference's defaults (they are duplicated on purpose: the
    /// firmware module does not depend on the Double one).
    @Test func defaultParametersAreTheReferences() {
        let p = FixedFusionParameters(), r = FusionParameters()
        func ms(_ s: Double) -> Int32 { Int32((s * 1000).rounded()) }
        #expect(p.accelerometerTauMilliseconds == ms(r.accelerometerTau))
        #expect(p.magnetometerTauMilliseconds == ms(r.magnetometerTau))
        #expect(p.restFilterTauMilliseconds == ms(r.restFilterTau))
        #expect(p.restMinDurationMilliseconds == ms(r.restMinDuration))
        #expect(p.restGyroThreshold == Q30(r.restGyroThreshold))
        #expect(p.restAccelThreshold == Q30(r.restAccelThreshold))
        #expect(p.restBiasEnabled == r.restBiasEnabled && p.motionBiasEnabled == r.motionBiasEnabled)
        #expect(p.restBiasTauMilliseconds == ms(r.restBiasTau))
        #expect(p.motionBiasTauMilliseconds == ms(r.motionBiasTau))
        #expect(p.biasClip == Q30(r.biasClip))
        #expect(p.restStrictAccelThreshold == Q30(r.restStrictAccelThreshold))
        #expect(p.restBiasClip == Q30(r.restBiasClip))
        #expect(p.restMeanWindowMilliseconds == ms(r.restMeanWindow))
        #expect(p.restRelevelGap == Q30(r.restRelevelGap))
        #expect(p.magneticBiasTauMilliseconds == ms(r.magneticBiasTau))
        #expect(p.magneticBiasPriorDurationMilliseconds == ms(r.magneticBiasPriorDuration))
        #expect(p.magneticBiasRestHoldMilliseconds == ms(r.magneticBiasRestHold))
        #expect(p.magneticBiasClip == Q30(r.magneticBiasClip))
        #expect(p.magneticRejectionEnabled == r.magneticRejectionEnabled)
        #expect(p.magneticCurrentTauMilliseconds == ms(r.magneticCurrentTau))
        #expect(p.magneticReferenceTauMilliseconds == ms(r.magneticReferenceTau))
        #expect(p.magneticNormThreshold == Q30(r.magneticNormThreshold))
        #expect(p.magneticDipThreshold == Q29(r.magneticDipThreshold))
        #expect(p.magneticNewFieldDurationMilliseconds == ms(r.magneticNewFieldDuration))
        #expect(p.magneticFirstFieldDurationMilliseconds == ms(r.magneticFirstFieldDuration))
        #expect(p.magneticNewFieldMinRate == Q30(r.magneticNewFieldMinRate))
        #expect(p.magneticMinUndisturbedDurationMilliseconds == ms(r.magneticMinUndisturbedDuration))
        #expect(p.magneticMaxRejectionDurationMilliseconds == ms(r.magneticMaxRejectionDuration))
        #expect(Double(p.magneticRejectionFactor) == r.magneticRejectionFactor)
        #expect(p.warmUpDurationMilliseconds == ms(r.warmUpDuration))
        #expect(p.headingDriftRate == Q30(r.headingDriftRate))
        #expect(p.headingAccuracyFloor == Q30(r.headingAccuracyFloor))
        #expect(p.deviceFixedFieldMaxRatio == Q30(r.deviceFixedFieldMaxRatio))
        #expect(p.deviceFixedFieldMinTurn == Q30(r.deviceFixedFieldMinTurn))
        #expect(p.gyroSensitivityPrior == Q30(r.gyroSensitivityPrior))
        #expect(p.gyroSensitivityDirectionNoise == Q30(r.gyroSensitivityDirectionNoise))
        #expect(p.gyroSensitivityLimit == Q30(r.gyroSensitivityLimit))
        #expect(p.gyroSensitivitySignificance == Q16(r.gyroSensitivitySignificance))
        #expect(p.gyroSensitivitySettleMilliseconds == ms(r.gyroSensitivitySettleDuration))
        #expect(p == FixedFusionParameters(r))
    }
}
