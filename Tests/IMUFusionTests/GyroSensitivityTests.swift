#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IMUFusionReference
import IMUGeometry
import Testing

/// Issue 28, sixth pass (the Double reference, on by default): the gyro's sensitivity error learnt from the
/// turns the device-fixed field test shows to be the earth's (`GyroSensitivityEstimator`,
/// `FusionParameters.gyroSensitivityPrior`) and taken out of every axis of the gyro frame on the
/// decimated step.
/// Docs/fusion-accuracy.md has the figures.
@Suite struct GyroSensitivityTests {
    static let deg = Double.pi / 180
    static let earth = FusionReferenceSyntheticTests.field  // ENU, µT

    /// The sign, on the field test's own construction (`DeviceFixedFieldTests.verdict`): a gyro
    /// reading 1 + s times the turn about z sees the earth's field turn by +s × the turn in the
    /// 6D frame, so a judged earth turn moves ŝ_z towards +s, for either sense of turning.
    @Test(arguments: [0.02, -0.02])
    func anEarthTurnMovesTheEstimateTowardsTheError(sensitivityError: Double) throws {
        for turn in [180 * Self.deg, -180 * Self.deg] {
            var test = DeviceFixedFieldTest()
            var span: DeviceFixedFieldTest.Span?
            let steps = 200
            for i in 0...steps {
                let psi = turn * Double(i) / Double(steps)
                let gyroPsi = psi * (1 + sensitivityError)
                if i > 0 {
                    let step = turn * (1 + sensitivityError) / Double(steps)
                    test.addTurn(step)
                    test.addTurn(perAxis: Vector3(0, 0, step), horizontal: .zero)
                }
                let earthIn6D = Quaternion(axis: Vector3(0, 0, 1), angle: gyroPsi - psi).rotate(Self.earth)
                span = test.update(field6D: earthIn6D, quiet: i == 0 || i == steps, minTurn: 90 * Self.deg, maxRatio: 0.09)
            }
            let judged = try #require(span)
            #expect(judged.verdict == .fixedToEarth)
            var estimator = GyroSensitivityEstimator(prior: 0.01)
            let noise = 1 * Self.deg
            estimator.update(
                regressor: judged.turnedPerAxis, directionChange: judged.directionChange, noiseVariance: noise * noise,
                limit: 0.03)
            // One turn of π against a prior of 1 % and 1° of noise: the Kalman gain takes
            // σ²π² / (σ²π² + noise²) ≈ 0.76 of the error measured.
            let h2 = turn * turn * (1 + sensitivityError) * (1 + sensitivityError)
            let expected = 1e-4 * h2 / (1e-4 * h2 + noise * noise) * sensitivityError / (1 + sensitivityError)
            #expect(abs(estimator.estimate.z - expected) < 0.002, "ŝ_z \(estimator.estimate.z), turn \(turn / Self.deg)°")
            #expect(estimator.estimate.x == 0 && estimator.estimate.y == 0)
        }
    }

    /// A level device with a gyro reading 1 + `sensitivityError` times the rate about z turns
    /// 180° and back eight times (half-sines of 2 s, 4 s still between, after 40 s still) in the
    /// earth's field, or with a magnet fixed to it: `step` feeds one sample (gyro rad/s, accel g,
    /// mag µT, dt s) to a filter and returns its attitude. The motion and its noise for both
    /// cores' tests. Returns the heading error's RMS over the last four back-and-forth cycles (°).
    static func backAndForthHeadingRMS(
        attached: Vector3, sensitivityError: Double, step: (Vector3, Vector3, Vector3, Double) -> Quaternion
    ) -> Double {
        var noise = FusionReferenceSyntheticTests.Noise()
        var psi = 0.0
        let dt = 0.01
        var sumSquares = 0.0
        var count = 0
        func run(seconds: Double, scored: Bool, rate: (Double) -> Double) {
            let n = Int((seconds / dt).rounded())
            for i in 0..<n {
                let omega = rate(Double(i) * dt)
                psi += omega * dt
                let truth = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
                let gyro = Vector3(0, 0, omega * (1 + sensitivityError)) + noise.vector(0.1 * deg)
                let accel = Vector3(0, 0, -1) + noise.vector(0.005)
                let mag = truth.conjugate.rotate(earth) + attached + noise.vector(0.2)
                let attitude = step(gyro, accel, mag, dt)
                if scored {
                    let error = attitude.angle(to: truth) / deg
                    sumSquares += error * error
                    count += 1
                }
            }
        }
        run(seconds: 40, scored: false) { _ in 0 }
        let peak = Double.pi * Double.pi / 4  // 180° in 2 s as a half-sine
        for cycle in 0..<8 {
            for sense in [1.0, -1.0] {
                run(seconds: 2, scored: cycle >= 4) { t in sense * peak * sin(Double.pi * t / 2) }
                run(seconds: 4, scored: cycle >= 4) { _ in 0 }
            }
        }
        return (sumSquares / Double(count)).squareRoot()
    }

    /// `backAndForthHeadingRMS` on the reference. Returns ŝ, its applied part, the estimator's
    /// variance of ŝ_z, its update count, and the heading error's RMS (°).
    static func backAndForth(parameters p: FusionParameters, attached: Vector3, sensitivityError: Double = 0.02)
        -> (estimate: Vector3, applied: Vector3, varianceZ: Double, updates: Int, headingRMS: Double)
    {
        var state = FusionState(parameters: p)
        let rms = backAndForthHeadingRMS(attached: attached, sensitivityError: sensitivityError) { gyro, accel, mag, dt in
            update(state: &state, parameters: p, gyro: gyro, accel: accel, mag: mag, dt: dt)
            return state.attitude
        }
        let c = state.sensitivity.covariance
        return (state.sensitivity.estimate, state.sensitivity.applied, c.zz, state.sensitivity.updates, rms)
    }

    static func learning(significance: Double = 0) -> FusionParameters {
        var p = FusionParameters()
        p.gyroSensitivityPrior = 0.01
        p.gyroSensitivitySignificance = significance
        return p
    }

    /// The defaults with the estimator off (`--set gyro-sensitivity-prior=0`).
    static var off: FusionParameters {
        var p = FusionParameters()
        p.gyroSensitivityPrior = 0
        return p
    }

    /// ŝ_z reaches the gyro's 2 % within three of its own standard deviations (the prior's 1 %
    /// and 1° of direction noise a turn: after sixteen turns of π, ~0.14 %), the other axes (never
    /// along the vertical) stay at the prior's 0, and the heading after the first turns is far
    /// better than without the estimator (there every turn leaves 3.6° for the magnetometer).
    @Test func aTwoPercentSensitivityIsLearntFromEarthTurns() {
        let learnt = Self.backAndForth(parameters: Self.learning(), attached: .zero)
        let without = Self.backAndForth(parameters: Self.off, attached: .zero)
        #expect(learnt.updates >= 12, "\(learnt.updates) turns learnt from")
        let sigma = learnt.varianceZ.squareRoot()
        #expect(sigma < 0.002, "σ(ŝ_z) \(sigma)")
        #expect(abs(learnt.estimate.z - 0.02) < 3 * sigma, "ŝ_z \(learnt.estimate.z) ± \(sigma)")
        #expect(abs(learnt.estimate.x) < 1e-9 && abs(learnt.estimate.y) < 1e-9)
        #expect(without.estimate == .zero && without.updates == 0)
        #expect(learnt.headingRMS < 0.5 * without.headingRMS,
                "heading RMS \(learnt.headingRMS)° learnt, \(without.headingRMS)° without")
    }

    /// A magnet fixed to the device (its field near the earth's norm, so the disturbance
    /// detector does not see it): every turn "turns with the device", ŝ stays 0 and the heading
    /// runs exactly as without the estimator.
    @Test func aFieldFixedToTheDeviceTeachesNothing() {
        let magnet = Vector3(4, -3, 0)
        let learnt = Self.backAndForth(parameters: Self.learning(), attached: magnet)
        let without = Self.backAndForth(parameters: Self.off, attached: magnet)
        #expect(learnt.estimate == .zero && learnt.updates == 0)
        #expect(learnt.headingRMS == without.headingRMS)
    }

    /// A turn whose direction change no sensitivity within the datasheets' ±3 % could make (a
    /// field that varies along the path) is refused, and ŝ never leaves ±3 %.
    @Test func anImpossibleChangeIsRefusedAndTheEstimateIsBounded() {
        var estimator = GyroSensitivityEstimator(prior: 0.01)
        let noise = 1 * Self.deg
        estimator.update(
            regressor: Vector3(0, 0, .pi), directionChange: 0.2 * .pi, noiseVariance: noise * noise, limit: 0.03)
        #expect(estimator.rejected == 1 && estimator.updates == 0 && estimator.estimate == .zero)
        // A wide prior (10 %) and a noisy turn (5°): 5 % measured would take ŝ to ~4.7 %; it stops at 3 %.
        var wide = GyroSensitivityEstimator(prior: 0.1)
        let loud = 5 * Self.deg
        wide.update(regressor: Vector3(0, 0, .pi), directionChange: 0.05 * .pi, noiseVariance: loud * loud, limit: 0.03)
        #expect(wide.updates == 1 && wide.estimate.z == 0.03)
        #expect(wide.correctionFactor.z == 0.03 / 1.03)
    }

    /// With the defaults (prior 1 %, significance gate k = 2), a gyro within ±0.1 % (well under two of ŝ's standard
    /// deviations, ~0.14 % after sixteen turns): the estimator learns, nothing is applied, and
    /// the output is bit for bit the estimator's off.
    @Test(arguments: [0.001, -0.001])
    func anInsignificantEstimateIsNotApplied(sensitivityError: Double) {
        let gated = Self.backAndForth(parameters: FusionParameters(), attached: .zero, sensitivityError: sensitivityError)
        let without = Self.backAndForth(parameters: Self.off, attached: .zero, sensitivityError: sensitivityError)
        #expect(gated.updates >= 12 && gated.estimate.z != 0, "\(gated.updates) turns, ŝ_z \(gated.estimate.z)")
        #expect(gated.applied == .zero)
        #expect(gated.headingRMS == without.headingRMS, "\(gated.headingRMS)° gated, \(without.headingRMS)° without")
    }

    /// The defaults' gate lets the 2 % about z through: it is learnt, applied, and the heading is
    /// as much better as without the gate. The 6D frame's directions then carry only ŝ's
    /// unapplied part (the innovation y − h·(ŝ − applied)), and ŝ settles at the gyro's error
    /// all the same (predicting h·ŝ there, it would settle near half of it).
    @Test func aTwoPercentSensitivityPassesTheGate() {
        let gated = Self.backAndForth(parameters: FusionParameters(), attached: .zero)
        let without = Self.backAndForth(parameters: Self.off, attached: .zero)
        let sigma = gated.varianceZ.squareRoot()
        #expect(abs(gated.estimate.z - 0.02) < 3 * sigma, "ŝ_z \(gated.estimate.z) ± \(sigma)")
        #expect(gated.applied.z == gated.estimate.z && gated.applied.x == 0 && gated.applied.y == 0)
        #expect(gated.headingRMS < 0.5 * without.headingRMS,
                "heading RMS \(gated.headingRMS)° gated, \(without.headingRMS)° without")
    }

    /// An estimator holding ŝ = `sensitivity` exactly enough (one turn per axis with a wide prior
    /// and almost no noise: ŝ_i = y/h to ~1e-10), its applied part returned for the gyro's scale.
    static func estimator(holding sensitivity: Vector3) -> GyroSensitivityEstimator {
        var estimator = GyroSensitivityEstimator(prior: 0.1)
        for (axis, s) in [(Vector3(1, 0, 0), sensitivity.x), (Vector3(0, 1, 0), sensitivity.y), (Vector3(0, 0, 1), sensitivity.z)] {
            estimator.update(regressor: Double.pi * axis, directionChange: .pi * s, noiseVariance: 1e-14, limit: 0.03)
        }
        return estimator
    }

    /// The earth-frame error of `estimate` against `truth` (E = estimate ⊗ truth⁻¹, small): its
    /// turn about the vertical (the heading's, °) and its tilt (the horizontal part, °, x and y).
    static func headingAndTilt(_ estimate: Quaternion, _ truth: Quaternion) -> (heading: Double, tilt: Vector3) {
        var e = estimate * truth.conjugate
        if e.w < 0 { e = Quaternion(w: -e.w, x: -e.x, y: -e.y, z: -e.z) }
        return (2 * atan2(e.z, e.w) / deg, Vector3(2 * e.x / deg, 2 * e.y / deg, 0))
    }

    /// The correction (the gyro frame turned back on each decimated step, with the span's
    /// commutator term) is the per-sample division of every axis, in the
    /// heading and in the tilt: a device tilted 30° about a horizontal axis turns at 400°/s
    /// about a body axis that is neither vertical nor horizontal for 4 s (1600°; θ = 22° per span
    /// of 16 samples at BROAD's 285.7 Hz), no magnetometer, its gyro reading 1 + ŝ_i per axis for
    /// a known ŝ. (a) The filter with that ŝ, the rate as read; (b) without the
    /// estimator, fed the rate divided by 1 + ŝ per sample; (c) the rate as read, uncorrected.
    /// On the decimated steps (where (a) has caught up) through the
    /// turn, (a) is within the third-order BCH share |θ|²/12 (1.3 %) of (c)'s gap to (b), in the
    /// heading and the tilt (without the ½ θ × ε term it is not: 0.42° heading, 0.36° tilt at
    /// full ŝ, against bounds of 0.14° and 0.18°); between them it lags by at most that span's
    /// correction, max|e_i|·|θ|.
    @Test(arguments: [1.0, 0.5])
    func theAllAxesCorrectionIsThePerSampleDivision(scale: Double) throws {
        let sensitivity = scale * Vector3(0.01, -0.02, 0.03)
        let held = Self.estimator(holding: sensitivity)
        let s = held.applied
        let tilt = Quaternion(axis: Vector3(1, 1, 0).normalized, angle: 30 * Self.deg)
        let axis = Vector3(1, -2, 3).normalized
        let omega = 400 * Self.deg
        let dt = 1 / 285.714
        let turnStart = 2000
        let samples = turnStart + Int(4 / dt)
        typealias Errors = [(heading: Double, tilt: Vector3)]
        func run(_ p: FusionParameters, estimator: GyroSensitivityEstimator?, perSample: Bool)
            -> (decimated: Errors, between: Errors)
        {
            var state = FusionState(parameters: p)
            if let estimator { state.sensitivity = estimator }
            var truth = tilt
            var decimated: Errors = []
            var between: Errors = []
            for i in 0..<samples {
                let rate = i >= turnStart ? omega * axis : .zero
                var gyro = Vector3((1 + s.x) * rate.x, (1 + s.y) * rate.y, (1 + s.z) * rate.z)
                if perSample { gyro = Vector3(gyro.x / (1 + s.x), gyro.y / (1 + s.y), gyro.z / (1 + s.z)) }
                let accel = truth.conjugate.rotate(Vector3(0, 0, -1))
                update(state: &state, parameters: p, gyro: gyro, accel: accel, mag: nil, dt: dt)
                truth = (truth * Quaternion(rotationVector: dt * rate)).normalized
                guard i >= turnStart else { continue }
                if state.decimationPhase == 0 && i % 32 == 15 { decimated.append(Self.headingAndTilt(state.attitude, truth)) }
                if (i - turnStart) % 29 == 28 { between.append(Self.headingAndTilt(state.attitude, truth)) }
            }
            return (decimated, between)
        }
        func largest(_ x: Errors, _ y: Errors) -> (heading: Double, tilt: Double) {
            var gap = (heading: 0.0, tilt: 0.0)
            for (p, q) in zip(x, y) {
                let t = p.tilt - q.tilt
                gap = (max(gap.heading, abs(p.heading - q.heading)), max(gap.tilt, t.dot(t).squareRoot()))
            }
            return gap
        }
        let a = run(Self.learning(), estimator: held, perSample: false)
        let b = run(Self.off, estimator: nil, perSample: true)
        let c = run(Self.off, estimator: nil, perSample: false)
        #expect(a.decimated.count == 35 && a.between.count == 39)
        let span = omega * 16 * dt  // rad
        let thirdOrder = span * span / 12
        let correctedGap = largest(a.decimated, b.decimated)
        let uncorrectedGap = largest(c.decimated, b.decimated)
        #expect(correctedGap.heading < thirdOrder * uncorrectedGap.heading && correctedGap.tilt < thirdOrder * uncorrectedGap.tilt,
                "corrected: heading \(correctedGap.heading)°, tilt \(correctedGap.tilt)°; uncorrected \(uncorrectedGap)")
        let lag = max(abs(s.x / (1 + s.x)), abs(s.y / (1 + s.y)), abs(s.z / (1 + s.z))) * span / Self.deg
        let betweenGap = largest(a.between, b.between)
        #expect(betweenGap.heading < lag && betweenGap.tilt < lag, "between: \(betweenGap), one span's correction \(lag)°")
    }
}
