#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import IMUFusion
import IMUFusionReference
import IMUGeometry
import Testing

/// Issue 28: the gyro's sensitivity learnt from earth turns in the fixed-point core
/// (`FixedGyroSensitivityEstimator`), the reference's `GyroSensitivityTests` on the integers,
/// and the ranges of its formats at extreme inputs.
@Suite struct FixedGyroSensitivityTests {
    static let deg = Double.pi / 180
    static let earth = FusionReferenceSyntheticTests.field  // ENU, µT

    static func coefficients(prior: Double = 0.01, significance: Double = 0, noise: Double = 1, limit: Double = 0.03)
        -> FixedFusionCoefficients
    {
        var p = FusionParameters()
        p.gyroSensitivityPrior = prior
        p.gyroSensitivitySignificance = significance
        p.gyroSensitivityDirectionNoise = noise * deg
        p.gyroSensitivityLimit = limit
        return FixedFusionCoefficients(parameters: FixedFusionParameters(p))
    }

    /// `GyroSensitivityTests.backAndForthHeadingRMS`'s turns on the fixed core alone. Returns the
    /// estimator, the final state, and the heading error's RMS over the last four cycles (°).
    static func backAndForth(coefficients c: FixedFusionCoefficients, attached: Vector3, sensitivityError: Double = 0.02)
        -> (sensitivity: FixedGyroSensitivityEstimator, state: FixedFusionState, headingRMS: Double)
    {
        var state = FixedFusionState(coefficients: c)
        let rms = GyroSensitivityTests.backAndForthHeadingRMS(attached: attached, sensitivityError: sensitivityError) {
            gyro, accel, mag, dt in
            fixedFusionUpdate(
                state: &state, coefficients: c, gyro: FixedFusionTwin.quantized(gyro),
                accel: FixedFusionTwin.quantized(accel), mag: FixedFusionTwin.quantized(mag), dt: Q30(dt))
            return FixedFusionTwin.double(state.attitude)
        }
        return (state.sensitivity, state, rms)
    }

    static func fraction(_ q40: Int64) -> Double { Double(q40) / 0x1p40 }
    static func variance(_ q60: Int64) -> Double { Double(q60) / 0x1p60 }

    /// ŝ_z reaches the gyro's 2 % within three of its standard deviations, the other axes stay
    /// at 0, and the heading is far better than without the estimator (off: a prior of 0).
    @Test func aTwoPercentSensitivityIsLearntFromEarthTurns() {
        let learnt = Self.backAndForth(coefficients: Self.coefficients(), attached: .zero)
        let without = Self.backAndForth(coefficients: Self.coefficients(prior: 0), attached: .zero)
        #expect(learnt.sensitivity.updates >= 12, "\(learnt.sensitivity.updates) turns learnt from")
        let sigma = Self.variance(learnt.sensitivity.pzz).squareRoot()
        #expect(sigma < 0.002, "σ(ŝ_z) \(sigma)")
        let z = Self.fraction(learnt.sensitivity.estimate.z)
        #expect(abs(z - 0.02) < 3 * sigma, "ŝ_z \(z) ± \(sigma)")
        let (x, y) = (Self.fraction(learnt.sensitivity.estimate.x), Self.fraction(learnt.sensitivity.estimate.y))
        #expect(abs(x) < 1e-9 && abs(y) < 1e-9, "ŝ_x \(x), ŝ_y \(y)")
        #expect(learnt.sensitivity.applied == learnt.sensitivity.estimate)
        #expect(without.sensitivity.estimate == .zero && without.sensitivity.updates == 0)
        #expect(learnt.headingRMS < 0.5 * without.headingRMS,
                "heading RMS \(learnt.headingRMS)° learnt, \(without.headingRMS)° without")
    }

    /// A magnet fixed to the device: every turn "turns with the device", ŝ stays 0 and the
    /// state runs bit for bit as without the estimator (but for the estimator's own fields).
    @Test func aFieldFixedToTheDeviceTeachesNothing() {
        let magnet = Vector3(4, -3, 0)
        let learnt = Self.backAndForth(coefficients: Self.coefficients(), attached: magnet)
        let without = Self.backAndForth(coefficients: Self.coefficients(prior: 0), attached: magnet)
        #expect(learnt.sensitivity.estimate == .zero && learnt.sensitivity.updates == 0)
        #expect(learnt.headingRMS == without.headingRMS)
        #expect(learnt.state.attitude == without.state.attitude)
    }

    /// With the significance gate (k = 2), a gyro within ±0.1 %: the estimator learns, nothing
    /// is applied, and the output is bit for bit the estimator's off.
    @Test(arguments: [0.001, -0.001])
    func anInsignificantEstimateIsNotApplied(sensitivityError: Double) {
        let gated = Self.backAndForth(
            coefficients: Self.coefficients(significance: 2), attached: .zero, sensitivityError: sensitivityError)
        let without = Self.backAndForth(
            coefficients: Self.coefficients(prior: 0), attached: .zero, sensitivityError: sensitivityError)
        #expect(gated.sensitivity.updates >= 12 && gated.sensitivity.estimate.z != 0,
                "\(gated.sensitivity.updates) turns, ŝ_z \(gated.sensitivity.estimate.z)")
        #expect(gated.sensitivity.applied == .zero && gated.sensitivity.correctionFactor == .zero)
        #expect(gated.headingRMS == without.headingRMS, "\(gated.headingRMS)° gated, \(without.headingRMS)° without")
        #expect(gated.state.attitude == without.state.attitude && gated.state.bias == without.state.bias)
    }

    /// The gate lets the 2 % about z through: applied, and the heading as much better.
    @Test func aTwoPercentSensitivityPassesTheGate() {
        let gated = Self.backAndForth(coefficients: Self.coefficients(significance: 2), attached: .zero)
        let without = Self.backAndForth(coefficients: Self.coefficients(prior: 0), attached: .zero)
        let sigma = Self.variance(gated.sensitivity.pzz).squareRoot()
        #expect(abs(Self.fraction(gated.sensitivity.estimate.z) - 0.02) < 3 * sigma)
        #expect(gated.sensitivity.applied.z == gated.sensitivity.estimate.z)
        #expect(gated.sensitivity.applied.x == 0 && gated.sensitivity.applied.y == 0)
        #expect(gated.headingRMS < 0.5 * without.headingRMS,
                "heading RMS \(gated.headingRMS)° gated, \(without.headingRMS)° without")
    }

    /// One turn of π about z, 2 % too much, against a prior of 1 % and 1° of noise: the Kalman
    /// step's closed form (gain σ²h² / (σ²h² + r)), its variance σ²r / (σ²h² + r), and
    /// e_z = ŝ/(1 + ŝ), to the formats' resolution.
    @Test(arguments: [0.02, -0.02])
    func oneTurnMatchesTheClosedForm(sensitivityError: Double) {
        let c = Self.coefficients()
        var estimator = FixedGyroSensitivityEstimator(priorVariance: c.sensitivityPriorVariance)
        let h = Double.pi * (1 + sensitivityError)
        let y = Double.pi * sensitivityError  // the direction's change: s × the true turn
        estimator.hasPending = true
        estimator.pendingTurnedPerAxis = WideVector3(x: 0, y: 0, z: Int64((h * 0x1p30).rounded()))
        estimator.pendingDirectionChange = Int64((y * 0x1p30).rounded())
        // A vertical field component of 0: no tilt term, the noise is the direction's alone.
        estimator.learnPending(field: FixedFusionTwin.quantized(Vector3(20, 0, 0)), coefficients: c)
        let r = Q30(Self.deg).doubleValue * Q30(Self.deg).doubleValue
        let prior = Q30(0.01).doubleValue * Q30(0.01).doubleValue
        let expected = prior * h * y / (prior * h * h + r)
        #expect(estimator.updates == 1 && !estimator.hasPending)
        #expect(abs(Self.fraction(estimator.estimate.z) - expected) < 1e-9, "ŝ_z \(Self.fraction(estimator.estimate.z)), \(expected)")
        #expect(abs(Self.variance(estimator.pzz) - prior * r / (prior * h * h + r)) < 1e-13)
        #expect(estimator.pxx == c.sensitivityPriorVariance && estimator.pxy == 0 && estimator.estimate.x == 0)
        let s = Self.fraction(estimator.applied.z)
        #expect(abs(Double(estimator.correctionFactor.z) / 0x1p30 - s / (1 + s)) < 2e-9)
    }

    /// The gates: a change no sensitivity within ±3 % could make is refused; ŝ never leaves ±3 %.
    @Test func anImpossibleChangeIsRefusedAndTheEstimateIsBounded() {
        let c = Self.coefficients()
        var estimator = FixedGyroSensitivityEstimator(priorVariance: c.sensitivityPriorVariance)
        estimator.hasPending = true
        estimator.pendingTurnedPerAxis = WideVector3(x: 0, y: 0, z: Int64(Double.pi * 0x1p30))
        estimator.pendingDirectionChange = Int64(0.2 * Double.pi * 0x1p30)
        estimator.learnPending(field: FixedFusionTwin.quantized(Vector3(20, 0, -40)), coefficients: c)
        #expect(estimator.rejected == 1 && estimator.updates == 0 && estimator.estimate == .zero)
        // A wide prior (10 %) and a noisy turn (5°): 5 % measured would take ŝ to ~4.7 %; it stops at 3 %.
        let wide = Self.coefficients(prior: 0.1, noise: 5)
        var bounded = FixedGyroSensitivityEstimator(priorVariance: wide.sensitivityPriorVariance)
        bounded.hasPending = true
        bounded.pendingTurnedPerAxis = WideVector3(x: 0, y: 0, z: Int64(Double.pi * 0x1p30))
        bounded.pendingDirectionChange = Int64(0.05 * Double.pi * 0x1p30)
        bounded.learnPending(field: FixedFusionTwin.quantized(Vector3(20, 0, 0)), coefficients: wide)
        #expect(bounded.updates == 1 && bounded.estimate.z == wide.sensitivityLimit)
    }

    /// Extreme turns and fields: every sum at its clamp, fields vertical, zero or at full scale,
    /// parameters at and beyond their bounds. Nothing traps, ŝ stays inside ±limit, P's
    /// diagonal inside [0, prior²], e inside [−1, ⅓].
    @Test func extremeInputsStayInRange() {
        let big: Int64 = 1 << 50
        let turns: [Int64] = [0, 1, -1, 1 << 30, -(1 << 37), big, -big, 3 << 48]
        let fields: [Vector3] = [
            .zero, Vector3(0, 0, 2048), Vector3(2048, 2048, -2048), Vector3(-2048, 0, 0), Vector3(1e-4, 0, 2000),
            Vector3(20, -5, -40),
        ]
        let settings = [
            Self.coefficients(), Self.coefficients(prior: 0.9, significance: 100, noise: 0, limit: 0.9),
            Self.coefficients(prior: 1e-9, significance: 4, noise: 100, limit: 1e-9),
            Self.coefficients(prior: 0.5, significance: 2, noise: 1e-6, limit: 0.5),
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick<T>(_ values: [T]) -> T {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return values[Int(seed >> 33) % values.count]
        }
        for c in settings {
            var estimator = FixedGyroSensitivityEstimator(priorVariance: c.sensitivityPriorVariance)
            for _ in 0..<4000 {
                let span = FixedDeviceFixedFieldTest.Span(
                    verdict: 1, directionChange: pick(turns),
                    turnedPerAxis: WideVector3(x: pick(turns), y: pick(turns), z: pick(turns)),
                    turnedHorizontalX: pick(turns), turnedHorizontalY: pick(turns))
                estimator.hold(span)
                estimator.addQuiet(span, duration: Int64(1) << 62)
                estimator.learnPending(field: FixedFusionTwin.quantized(pick(fields)), coefficients: c)
                for s in [estimator.estimate.x, estimator.estimate.y, estimator.estimate.z] {
                    #expect(s.magnitude <= UInt64(c.sensitivityLimit))
                }
                for p in [estimator.pxx, estimator.pyy, estimator.pzz] {
                    #expect(p >= 0 && p <= c.sensitivityPriorVariance)
                }
                for e in [estimator.correctionFactor.x, estimator.correctionFactor.y, estimator.correctionFactor.z] {
                    #expect(e >= -(1 << 30) && e <= (1 << 30) / 3 + 1)
                }
            }
            #expect(estimator.updates + estimator.rejected > 0)
        }
        // e at the ends of ŝ's range.
        #expect(FixedGyroSensitivityEstimator.factor(-(1 << 39)) == -(1 << 30))
        #expect(FixedGyroSensitivityEstimator.factor(1 << 39) == ((1 << 30) + 1) / 3)
    }

    /// The whole filter with the estimator on at full-scale rates, long spans and dt at its
    /// bounds: nothing traps and the attitude stays a unit quaternion.
    @Test func theFilterRunsAtFullScale() {
        let c = Self.coefficients(prior: 0.5, significance: 0, limit: 0.5)
        var state = FixedFusionState(coefficients: c)
        state.sensitivity.applied = WideVector3(x: -(1 << 39), y: 1 << 39, z: -(1 << 39))
        state.sensitivity.correctionFactor = WideVector3(
            x: FixedGyroSensitivityEstimator.factor(-(1 << 39)), y: FixedGyroSensitivityEstimator.factor(1 << 39),
            z: FixedGyroSensitivityEstimator.factor(-(1 << 39)))
        let full = Q16(raw: 64 << 16)
        for i in 0..<20_000 {
            let sign: Int32 = (i / 3000) % 2 == 0 ? 1 : -1
            let gyro = FixedVector3(x: Q16(raw: full.raw &* sign), y: full, z: Q16(raw: -full.raw))
            let still = i % 7000 > 5000
            fixedFusionUpdate(
                state: &state, coefficients: c, gyro: still ? .zero : gyro,
                accel: FixedVector3(x: .zero, y: .zero, z: Q16(-1)),
                mag: FixedVector3(x: Q16(2048), y: Q16(Double(sign) * 2048), z: Q16(-2048)),
                dt: i % 1000 == 999 ? Q30(raw: (1 << 30) - 1) : Q30(0.001))
        }
        let q = FixedFusionTwin.double(state.attitude)
        #expect(abs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) < 1e-6)
    }
}

extension FixedGyroSensitivityTests {
    /// One algorithm in both cores: the back-and-forth turns with ±2 % about z (prior 1 %, k = 2)
    /// through `FixedFusionTwin`: the same turns learnt from and refused, ŝ and P within the
    /// formats' resolution of the reference's, the attitudes within 0.01°.
    @Test(arguments: [0.02, -0.02])
    func theFixedCoreLearnsAsTheReference(sensitivityError: Double) {
        var p = FusionParameters()
        p.gyroSensitivityPrior = 0.01
        p.gyroSensitivitySignificance = 2
        var twin = FixedFusionTwin(parameters: p)
        var noise = FusionReferenceSyntheticTests.Noise()
        var psi = 0.0
        let dt = 0.01
        func run(seconds: Double, rate: (Double) -> Double) {
            for i in 0..<Int((seconds / dt).rounded()) {
                let omega = rate(Double(i) * dt)
                psi += omega * dt
                let truth = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
                let gyro = Vector3(0, 0, omega * (1 + sensitivityError)) + noise.vector(0.1 * Self.deg)
                let accel = Vector3(0, 0, -1) + noise.vector(0.005)
                twin.step(gyro: gyro, accel: accel, mag: truth.conjugate.rotate(Self.earth) + noise.vector(0.2), dt: dt)
            }
        }
        run(seconds: 40) { _ in 0 }
        let peak = Double.pi * Double.pi / 4
        for _ in 0..<8 {
            for sense in [1.0, -1.0] {
                run(seconds: 2) { t in sense * peak * sin(Double.pi * t / 2) }
                run(seconds: 4) { _ in 0 }
            }
        }
        let (reference, fixed) = (twin.reference.sensitivity, twin.fixed.sensitivity)
        #expect(Int(fixed.updates) == reference.updates && Int(fixed.rejected) == reference.rejected)
        #expect(fixed.updates >= 12)
        #expect(abs(Self.fraction(fixed.estimate.z) - reference.estimate.z) < 1e-6,
                "ŝ_z \(Self.fraction(fixed.estimate.z)) fixed, \(reference.estimate.z) reference")
        #expect(abs(Self.variance(fixed.pzz) - reference.covariance.zz) < 1e-3 * reference.covariance.zz)
        #expect((fixed.applied.z != 0) == (reference.applied.z != 0))
        #expect(twin.rmsDegrees < 0.01 && twin.largestDegrees < 0.05,
                "fixed vs reference: RMS \(twin.rmsDegrees)°, largest \(twin.largestDegrees)°")
    }
}

extension FixedGyroSensitivityTests {
    /// The correction of every axis in integers: `GyroSensitivityTests.theAllAxesCorrectionIsThePerSampleDivision`'s
    /// turn (a device tilted 30° turning at 400°/s for 4 s about a body axis neither vertical
    /// nor horizontal, 285.7 Hz, no magnetometer) with ŝ = (1, −2, 3) % held in both cores,
    /// through `FixedFusionTwin`: the attitudes within 0.01° RMS and 0.05° at most (measured
    /// 0.005° and 0.018°), where the fixed core without the correction is off by 17.8° at most
    /// and with it but without its ½ θ × ε term by 0.22° RMS, 0.50° at most.
    @Test func theCorrectionOfEveryAxisMatchesTheReference() {
        let sensitivity = Vector3(0.01, -0.02, 0.03)
        let p = GyroSensitivityTests.learning()
        func run(corrected: Bool) -> FixedFusionTwin {
            var twin = FixedFusionTwin(parameters: p)
            twin.reference.sensitivity = GyroSensitivityTests.estimator(holding: sensitivity)
            if corrected {
                let applied = WideVector3(
                    x: Int64((sensitivity.x * 0x1p40).rounded()), y: Int64((sensitivity.y * 0x1p40).rounded()),
                    z: Int64((sensitivity.z * 0x1p40).rounded()))
                twin.fixed.sensitivity.applied = applied
                twin.fixed.sensitivity.correctionFactor = WideVector3(
                    x: FixedGyroSensitivityEstimator.factor(applied.x), y: FixedGyroSensitivityEstimator.factor(applied.y),
                    z: FixedGyroSensitivityEstimator.factor(applied.z))
            }
            let tilt = Quaternion(axis: Vector3(1, 1, 0).normalized, angle: 30 * Self.deg)
            let axis = Vector3(1, -2, 3).normalized
            let omega = 400 * Self.deg
            let dt = 1 / 285.714
            var truth = tilt
            for i in 0..<(2000 + Int(4 / dt)) {
                let rate = i >= 2000 ? omega * axis : .zero
                let gyro = Vector3(
                    (1 + sensitivity.x) * rate.x, (1 + sensitivity.y) * rate.y, (1 + sensitivity.z) * rate.z)
                twin.step(gyro: gyro, accel: truth.conjugate.rotate(Vector3(0, 0, -1)), mag: nil, dt: dt)
                truth = (truth * Quaternion(rotationVector: dt * rate)).normalized
            }
            return twin
        }
        let corrected = run(corrected: true)
        let uncorrected = run(corrected: false)
        #expect(corrected.rmsDegrees < 0.01 && corrected.largestDegrees < 0.05,
                "fixed vs reference: RMS \(corrected.rmsDegrees)°, largest \(corrected.largestDegrees)°")
        #expect(uncorrected.largestDegrees > 2, "uncorrected fixed vs reference: largest \(uncorrected.largestDegrees)°")
    }
}
