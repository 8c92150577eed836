#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IMUFusion
import IMUFusionReference
import IMUGeometry
import Testing

/// Issue 28 (fourth pass, on by default since the fifth): the test that tells a field fixed to
/// the device (a magnet attached to it) from the earth's, and τ_mag / magneticRejectionFactor at
/// quiet moments while it says "fixed to the earth" (`deviceFixedFieldMaxRatio`), in both cores.
/// Docs/fusion-accuracy.md has the figures.
@Suite struct DeviceFixedFieldTests {
    static let deg = Double.pi / 180
    static let earth = FusionReferenceSyntheticTests.field  // ENU, µT

    /// The filter without the test (as before the fifth pass).
    static func withoutTest() -> FusionParameters {
        var p = FusionParameters()
        p.deviceFixedFieldMaxRatio = 0
        return p
    }

    /// The detector alone on constructed samples: the device turns `turn` about the vertical
    /// (its gyro reads `sensitivityError` too much), the field in the 6D frame is the earth's
    /// turned back by the gyro's excess, plus `attached` (µT, device axes) turned with the device.
    static func verdict(turn: Double, sensitivityError: Double, attached: Vector3) -> DeviceFixedFieldTest {
        var test = DeviceFixedFieldTest()
        let steps = 200
        for i in 0...steps {
            let psi = turn * Double(i) / Double(steps)  // true heading turned
            let gyroPsi = psi * (1 + sensitivityError)  // what the gyro integrated (the 6D frame)
            if i > 0 { test.addTurn(turn * (1 + sensitivityError) / Double(steps)) }
            // The 6D frame is the earth's turned by gyroPsi − psi; the attached part turns with
            // the device (by gyroPsi in the 6D frame).
            let earthIn6D = Quaternion(axis: Vector3(0, 0, 1), angle: gyroPsi - psi).rotate(Self.earth)
            let attachedIn6D = Quaternion(axis: Vector3(0, 0, 1), angle: gyroPsi).rotate(attached)
            test.update(
                field6D: earthIn6D + attachedIn6D, quiet: i == 0 || i == steps,
                minTurn: 90 * Self.deg, maxRatio: 0.09)
        }
        return test
    }

    @Test(arguments: [-0.03, 0.0, 0.03])
    func theEarthsFieldPassesWithinTheSensitivityTolerance(sensitivityError: Double) {
        for turn in [100 * Self.deg, -180 * Self.deg, 400 * Self.deg] {
            let test = Self.verdict(turn: turn, sensitivityError: sensitivityError, attached: .zero)
            #expect(test.verdict == .fixedToEarth, "turn \(turn / Self.deg)°, ratio \(test.lastRatio)")
            // Each of the 200 steps moves the direction by δ = turn·error/200, which the test
            // takes as 2·tan(δ/2) (see `DeviceFixedFieldTest.angle`).
            let step = turn * sensitivityError / 200
            let expected = 200 * 2 * tan(abs(step) / 2) / (abs(turn) * (1 + sensitivityError))
            #expect(abs(test.lastRatio - expected) < 1e-12)
        }
    }

    /// A magnet of a quarter of the horizontal field (5 µT of 20) turns the field's direction by
    /// ~14° per 90° turned: it fails. (A part weaker than the earth's horizontal field swings the
    /// direction and brings it back after a full turn, so a turn of ~360° cannot tell it; there
    /// the field's direction is what it was before the turn, and the next turn judges again.)
    @Test func aFieldFixedToTheDeviceFails() {
        for turn in [100 * Self.deg, -180 * Self.deg, 250 * Self.deg] {
            let test = Self.verdict(turn: turn, sensitivityError: 0.01, attached: Vector3(5, 0, 0))
            #expect(test.verdict == .turnsWithDevice, "turn \(turn / Self.deg)°, ratio \(test.lastRatio)")
        }
        // A magnet stronger than the earth's horizontal field: the direction turns with the device,
        // also past 180° (the direction is unwrapped sample by sample).
        let strong = Self.verdict(turn: 400 * Self.deg, sensitivityError: 0, attached: Vector3(0, -60, 10))
        #expect(strong.verdict == .turnsWithDevice)
        #expect(abs(strong.lastRatio - 1) < 0.3, "ratio \(strong.lastRatio)")
    }

    @Test func aTurnShorterThanTheMinimumIsNotJudged() {
        let test = Self.verdict(turn: 60 * Self.deg, sensitivityError: 0, attached: Vector3(5, 0, 0))
        #expect(test.verdict == .unknown)
    }

    /// The fixed core's test on the same constructed samples (the turn as a rate about z for
    /// one 10 ms span per step, the field rounded to Q16.16): the same verdicts.
    static func fixedVerdict(turn: Double, sensitivityError: Double, attached: Vector3) -> FixedDeviceFixedFieldTest {
        var test = FixedDeviceFixedFieldTest()
        let steps = 200
        let span = Q30(0.01)
        for i in 0...steps {
            let psi = turn * Double(i) / Double(steps)
            let gyroPsi = psi * (1 + sensitivityError)
            if i > 0 {
                let rate = turn * (1 + sensitivityError) / Double(steps) / span.doubleValue
                test.addTurn(
                    rate: WideVector3(x: 0, y: 0, z: Int64((rate * 0x1p40).rounded())),
                    up: FixedVector3(x: .zero, y: .zero, z: .one), span: Int64(span.raw))
            }
            let earthIn6D = Quaternion(axis: Vector3(0, 0, 1), angle: gyroPsi - psi).rotate(Self.earth)
            let attachedIn6D = Quaternion(axis: Vector3(0, 0, 1), angle: gyroPsi).rotate(attached)
            test.update(
                field: FixedFusionTwin.quantized(earthIn6D + attachedIn6D), quiet: i == 0 || i == steps,
                maxRatio: Int64(Q30(0.09).raw), minTurn: Int64(Q30(90 * Self.deg).raw))
        }
        return test
    }

    @Test func theFixedCoreJudgesAsTheReference() {
        for (turn, error, attached, expected) in [
            (100.0, 0.03, Vector3.zero, 1), (-180, -0.03, .zero, 1), (400, 0.03, .zero, 1),
            (100, 0.01, Vector3(5, 0, 0), -1), (-180, 0.01, Vector3(5, 0, 0), -1), (250, 0.01, Vector3(5, 0, 0), -1),
            (400, 0, Vector3(0, -60, 10), -1), (60, 0, Vector3(5, 0, 0), 0),
        ] as [(Double, Double, Vector3, Int8)] {
            let fixed = Self.fixedVerdict(turn: turn * Self.deg, sensitivityError: error, attached: attached)
            let reference = Self.verdict(turn: turn * Self.deg, sensitivityError: error, attached: attached)
            #expect(fixed.verdict == expected, "turn \(turn)°, attached \(attached)")
            #expect(reference.verdict.rawValue == expected, "turn \(turn)°, attached \(attached)")
            // The same sums, to the rounding of the field to Q16.16 and of the turn to Q30.
            #expect(abs(Double(fixed.turned) / 0x1p30 - reference.turned) < 1e-6)
            #expect(abs(Double(fixed.directionChange) / 0x1p30 - reference.directionChange) < 1e-4)
        }
    }

    /// The angle between consecutive fields: 4(a × b)/|a + b|² in both cores, clipped at ±π (the
    /// fixed core's at the extremes of its range: opposite fields, the clamped samples' size).
    @Test func theDirectionStepStaysInRange() {
        let big = Int64(Int32.max >> 4)  // ~2^27: a rotated clamped sample's size
        #expect(FixedDeviceFixedFieldTest.angle(big, 0, -big, 0) == Int64(Q29.pi.raw) << 1)
        #expect(FixedDeviceFixedFieldTest.angle(big, 1, -big, 1) == Int64(Q29.pi.raw) << 1)
        #expect(FixedDeviceFixedFieldTest.angle(big, -1, -big, -1) == -(Int64(Q29.pi.raw) << 1))
        #expect(FixedDeviceFixedFieldTest.angle(0, 0, 0, 0) == Int64(Q29.pi.raw) << 1)
        for degrees in [0.5, 10, 30, 90, 150, 170] {
            let theta = degrees * Self.deg
            let expected = 2 * tan(theta / 2)
            let reference = DeviceFixedFieldTest.angle(from: (20, 0), to: (20 * cos(theta), 20 * sin(theta)))
            #expect(abs(reference - min(expected, .pi)) < 1e-12)
            for scale in [Double(1 << 16), Double(big) / 20] {
                let fixed = FixedDeviceFixedFieldTest.angle(
                    Int64(20 * scale), 0, Int64((20 * cos(theta) * scale).rounded()), Int64((20 * sin(theta) * scale).rounded()))
                #expect(abs(Double(fixed) / 0x1p30 - min(expected, .pi)) < 1e-4, "\(degrees)° at \(scale)")
                let negative = FixedDeviceFixedFieldTest.angle(
                    Int64(20 * scale), 0, Int64((20 * cos(theta) * scale).rounded()), -Int64((20 * sin(theta) * scale).rounded()))
                #expect(negative == -fixed)
            }
        }
    }

    /// A turn at a quiet, level device with a field of `attached` µT fixed to the device, both
    /// cores side by side (`FixedFusionTwin`): the verdicts after it, and the heading errors 6 s later.
    static func turnAndSettle(parameters p: FusionParameters, attached: Vector3)
        -> (reference: Int8, fixed: Int8, referenceError: Double, fixedError: Double)
    {
        var twin = FixedFusionTwin(parameters: p)
        var noise = FusionReferenceSyntheticTests.Noise()
        var psi = 0.0
        let dt = 0.01
        let sensitivityError = 0.03
        var step = 0
        func run(seconds: Double, rate: (Double) -> Double) {
            let start = Double(step) * dt
            while Double(step) * dt < start + seconds {
                let omega = rate(Double(step) * dt - start)
                psi += omega * dt
                step += 1
                let truth = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
                let gyro = Vector3(0, 0, omega * (1 + sensitivityError)) + noise.vector(0.1 * deg)
                let accel = Vector3(0, 0, -1) + noise.vector(0.005)
                let mag = truth.conjugate.rotate(Self.earth) + attached + noise.vector(0.2)
                twin.step(gyro: gyro, accel: accel, mag: mag, dt: dt)
            }
        }
        run(seconds: 40) { _ in 0 }
        // 180° in 2 s, half-sine (peak 141°/s), then still.
        let peak: Double = Double.pi * Double.pi / 4
        for _ in 0..<2 {
            run(seconds: 2) { t in peak * sin(Double.pi * t / 2) }
            run(seconds: 4) { _ in 0 }
        }
        run(seconds: 6) { _ in 0 }
        let truth = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
        return (
            twin.reference.heading.deviceFixed.verdict.rawValue, twin.fixed.heading.deviceFixed.verdict,
            twin.reference.attitude.angle(to: truth) / Self.deg,
            FixedFusionTwin.double(twin.fixed.attitude).angle(to: truth) / Self.deg)
    }

    /// The earth's field passes and the raised gain takes back the gyro's sensitivity error
    /// (3 % of 360° turned) faster; a field fixed to the device fails and the heading runs as
    /// without the test (bit for bit: the gain is not raised). Both cores.
    @Test func theGainRisesOnlyForTheEarthsField() {
        let earth = Self.turnAndSettle(parameters: FusionParameters(), attached: .zero)
        let earthWithout = Self.turnAndSettle(parameters: Self.withoutTest(), attached: .zero)
        #expect(earth.reference == 1 && earth.fixed == 1)
        #expect(earth.referenceError < 0.8 * earthWithout.referenceError,
                "reference heading error \(earth.referenceError)° with the test, \(earthWithout.referenceError)° without")
        #expect(earth.fixedError < 0.8 * earthWithout.fixedError,
                "fixed heading error \(earth.fixedError)° with the test, \(earthWithout.fixedError)° without")

        // An attached magnet whose field keeps the norm near the earth's (the detector of
        // disturbances does not see it).
        let magnet = Vector3(4, -3, 0)
        let attached = Self.turnAndSettle(parameters: FusionParameters(), attached: magnet)
        let attachedWithout = Self.turnAndSettle(parameters: Self.withoutTest(), attached: magnet)
        #expect(attached.reference == -1 && attached.fixed == -1)
        #expect(attached.referenceError == attachedWithout.referenceError)
        #expect(attached.fixedError == attachedWithout.fixedError)
    }
}
