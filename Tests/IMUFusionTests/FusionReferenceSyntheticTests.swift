import Foundation
import IMUFusionReference
import IMUGeometry
import Testing

/// The reference filter on synthetic motion that always runs: known attitude, gyro bias,
/// noise, jittered dt and a slower magnetometer.
@Suite struct FusionReferenceSyntheticTests {
    /// Deterministic noise (xorshift, uniform in −1…1).
    struct Noise {
        var s: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return Double(s >> 11) / Double(1 << 52) - 1
        }
        mutating func vector(_ a: Double) -> Vector3 { Vector3(a * next(), a * next(), a * next()) }
    }

    static let field = Vector3(0, 20, -45)  // µT, ENU: north and down (Berlin-like dip ≈ 66°)
    static let deg = Double.pi / 180

    struct Run {
        var state = FusionState()
        var truth = Quaternion(axis: Vector3(1, 0.5, 0).normalized, angle: 0.4)
        var noise = Noise()
        var t = 0.0
        var step = 0
        var parameters = FusionParameters()
        var bias = Vector3(0.6, -0.4, 0.5) * (Double.pi / 180)
        var fieldOffset = Vector3.zero  // device frame, a magnet carried along
        var useMag = true

        /// Advances by about dt (jittered ±20 %), turning at `rate` (device frame, rad/s).
        mutating func advance(seconds: Double, rate: Vector3, dt: Double = 0.01) {
            let end = t + seconds
            while t < end {
                let h = dt * (1 + 0.2 * noise.next())
                truth = (truth * Quaternion(rotationVector: rate * h)).normalized
                t += h
                step += 1
                let gyro = rate + bias + noise.vector(0.3 * deg)
                let accel = truth.conjugate.rotate(Vector3(0, 0, -1)) + noise.vector(0.01)
                let mag = useMag && step % 4 == 0
                    ? truth.conjugate.rotate(FusionReferenceSyntheticTests.field) + fieldOffset + noise.vector(0.3) : nil
                update(state: &state, parameters: parameters, gyro: gyro, accel: accel, mag: mag, dt: h)
            }
        }
        var errorDegrees: Double { state.attitude.angle(to: truth) / FusionReferenceSyntheticTests.deg }
    }

    @Test func restThenRotationConvergesAndEstimatesBias() {
        var run = Run()
        run.advance(seconds: 10, rate: .zero)
        let out = run.state.output(parameters: run.parameters)
        #expect(out.isValid)
        #expect(out.isAtRest)
        #expect((out.gyroBias - run.bias).length < 0.05 * Self.deg)
        // The heading's running-mean start lags the drift before the bias was learnt.
        #expect(run.errorDegrees < 2.0)
        // Gravity (down) and no user acceleration at rest.
        #expect((out.gravity - run.truth.conjugate.rotate(Vector3(0, 0, -1))).length < 0.02)
        #expect(out.userAcceleration.length < 0.05)

        run.advance(seconds: 30, rate: Vector3(0.2, -0.3, 0.8))
        let moving = run.state.output(parameters: run.parameters)
        #expect(!moving.isAtRest)
        #expect(!moving.isMagneticallyDisturbed)
        #expect(run.errorDegrees < 1.0)
        #expect(moving.headingAccuracy < 6 * Self.deg)
    }

    @Test(arguments: [0.1, 0.02, 0.001])
    func anyRateFrom10HzTo1kHz(dt: Double) {
        var run = Run()
        run.advance(seconds: 10, rate: .zero, dt: dt)
        run.advance(seconds: 20, rate: Vector3(-0.3, 0.4, 0.7), dt: dt)
        #expect(run.errorDegrees < 2, "dt \(dt) s")
        #expect((run.state.bias - run.bias).length < 0.1 * Self.deg, "dt \(dt) s")
    }

    @Test func headingFollowsTheMagnetometerFromAnyStart() {
        for start in stride(from: -170.0, through: 180, by: 50) {
            var run = Run()
            run.truth = Quaternion(axis: Vector3(0, 0, 1), angle: start * Self.deg)
            run.advance(seconds: 6, rate: .zero)
            #expect(run.errorDegrees < 3, "start heading \(start)°")
        }
    }

    @Test func sixDimensionalKeepsInclination() {
        var run = Run()
        run.useMag = false
        run.advance(seconds: 10, rate: .zero)
        run.advance(seconds: 20, rate: Vector3(0.5, 0.2, -0.6))
        let q = run.state.attitude6D
        // Inclination error: compare the vertical seen in device axes.
        let upEstimate = q.conjugate.rotate(Vector3(0, 0, 1))
        let upTruth = run.truth.conjugate.rotate(Vector3(0, 0, 1))
        #expect(acos(min(1, upEstimate.dot(upTruth))) / Self.deg < 1.0)
        #expect(run.state.output(parameters: run.parameters).headingAccuracy == .pi)
    }

    @Test func carriedMagnetIsRejected() {
        var run = Run()
        run.advance(seconds: 10, rate: .zero)
        run.advance(seconds: 10, rate: Vector3(0, 0, 0.6))
        run.fieldOffset = Vector3(30, 0, 0)
        run.advance(seconds: 5, rate: Vector3(0, 0, 0.6))
        #expect(run.state.output(parameters: run.parameters).isMagneticallyDisturbed)
        #expect(run.errorDegrees < 2)
    }

    /// The Newton-step renormalisation keeps every quaternion at unit length over long runs.
    @Test func quaternionsStayUnitOverAMillionSamples() {
        var run = Run()
        run.advance(seconds: 10_000, rate: Vector3(3, -2, 5), dt: 0.01)
        for q in [run.state.gyroAttitude, run.state.inclination, run.state.heading.heading, run.state.attitude] {
            #expect(abs(q.norm - 1) < 1e-12)
        }
        #expect(run.errorDegrees < 3)
    }

    @Test func snapshotRestoreIsACopy() {
        var run = Run()
        run.advance(seconds: 2, rate: Vector3(0.1, 0, 0))
        let snapshot = run.state
        var a = snapshot, b = snapshot
        let p = FusionParameters()
        update(state: &a, parameters: p, gyro: Vector3(0.1, 0, 0), accel: Vector3(0, 0, -1), dt: 0.01)
        update(state: &b, parameters: p, gyro: Vector3(0.1, 0, 0), accel: Vector3(0, 0, -1), dt: 0.01)
        #expect(a == b)
        #expect(a != snapshot)
    }
}
