import Foundation
import IMUFusion
import IMUFusionReference
import IMUGeometry
import Testing

/// An uncalibrated gyro on a device that is never still (issue 19, goal 1): handled from
/// power-up, with the hand's accelerations (the device held 0.2 m from the wrist), through the
/// Double reference and the fixed-point core side by side. Until a rest measures the offset,
/// the in-motion estimate learns at 1/(τ_acc/2) with innovations clipped at the datasheets'
/// range (`FusionState.biasMeasured`).
@Suite struct NeverStillConvergenceTests {
    static let deg = Double.pi / 180

    /// Hand motion: ±40° pitch, ±30° roll and ±60° yaw at 0.4–0.9 Hz around a base pose that
    /// turns at `wander` °/s about an axis that moves (picked up, carried, turned over).
    static func handling(base: Quaternion, wanderDegreesPerSecond wander: Double) -> (Double) -> Quaternion {
        { s in
            let drift = Quaternion(axis: Vector3(sin(0.05 * s), cos(0.031 * s), 0.4).normalized, angle: wander * deg * s)
            let pitch = 40 * deg * sin(2 * .pi * 0.7 * s), roll = 30 * deg * sin(2 * .pi * 0.4 * s + 1)
            let yaw = 60 * deg * sin(2 * .pi * 0.9 * s + 2)
            return Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * drift * base * Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
                * Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        }
    }

    /// 100 Hz samples of `motion` with a gyro offset, noise as `UncalibratedGyroTests.Log`, and
    /// the acceleration of a device `pivot` m from the wrist along its −y axis.
    struct Run {
        var twin = FixedFusionTwin()
        var noise = UncalibratedGyroTests.Noise()
        let offset: Vector3
        let motion: (Double) -> Quaternion
        let pivot = 0.2
        /// 9D: a magnetometer sample (µT, a field of 45 µT dipping 63°) with every sample.
        var magnetic = false
        static let field = Vector3(0, 20, -40)
        let dt = 0.01
        var t = 0.0
        /// Worst tilt of each 10 s (degrees), both cores, and the angle between their verticals
        /// from `compareAfter` on.
        var worstTilt: [(reference: Double, fixed: Double)] = []
        /// When the comparison of the cores starts (s).
        var compareAfter = 10.0
        var squaredDifference = 0.0, compared = 0
        var rmsDifference: Double { compared == 0 ? 0 : (squaredDifference / Double(compared)).squareRoot() }

        init(offsetDegreesPerSecond o: Vector3, motion: @escaping (Double) -> Quaternion) {
            offset = o * NeverStillConvergenceTests.deg
            self.motion = motion
            twin.compareAfter = 0
        }

        func position(_ s: Double) -> Vector3 { motion(s).rotate(Vector3(0, -pivot, 0)) }

        mutating func run(seconds: Double) {
            while t < seconds - 1e-9 {
                var worst = (reference: 0.0, fixed: 0.0)
                let end = t + 10
                while t < end - 1e-9 {
                    let last = motion(t)
                    t += dt
                    let now = motion(t)
                    let rate = (last.conjugate * now).rotationVectorOfUnit / dt
                    let h = 0.002
                    let kinematic = (position(t + h) - 2 * position(t) + position(t - h)) * (1 / (h * h * 9.81))
                    // Core Motion's sign: gravity reads −1 g face up, the kinematic acceleration enters negated.
                    let accel = now.conjugate.rotate(Vector3(0, 0, -1) - kinematic)
                    twin.step(gyro: rate + offset + noise.vector(0.05 * NeverStillConvergenceTests.deg),
                              accel: accel + noise.vector(0.003), mag: magnetic ? now.conjugate.rotate(Self.field) : nil, dt: dt)
                    let fixed = FixedFusionTwin.double(twin.fixed.attitude6D)
                    worst = (max(worst.reference, Self.tilt(twin.reference.attitude6D, now)), max(worst.fixed, Self.tilt(fixed, now)))
                    if t > compareAfter {
                        let d = Self.tilt(twin.reference.attitude6D, fixed)
                        squaredDifference += d * d
                        compared += 1
                    }
                }
                worstTilt.append(worst)
            }
        }

        /// Angle between two attitudes' verticals (degrees).
        static func tilt(_ a: Quaternion, _ b: Quaternion) -> Double {
            let u = a.conjugate.rotate(Vector3(0, 0, 1)), v = b.conjugate.rotate(Vector3(0, 0, 1))
            return acos(min(1, max(-1, u.dot(v)))) / NeverStillConvergenceTests.deg
        }

        var summary: String {
            worstTilt.map { String(format: "%.1f/%.1f", $0.reference, $0.fixed) }.joined(separator: " ")
        }
    }

    /// The offsets of `UncalibratedGyroTests` that matter here: small, medium, the seed's, the
    /// datasheet's limit on every axis (two sign patterns), on one horizontal and on the vertical axis.
    static let offsets: [Vector3] = [
        Vector3(1.5, -1.8, 1.0), Vector3(5, -4, 3), Vector3(15, -12, 8), Vector3(20, 20, 20), Vector3(-20, 20, -20),
        Vector3(0, 0, 20), Vector3(20, 0, 0),
    ]

    /// The bias error (°/s): its part along the base pose's vertical and the rest.
    static func biasError(_ run: Run, base: Quaternion) -> (along: Double, across: Double) {
        let b = run.twin.fixed.bias, scale = 1 / Double(Int64(1) << 40)
        let error = (Vector3(Double(b.x), Double(b.y), Double(b.z)) * scale - run.offset) * (1 / deg)
        let up = base.conjugate.rotate(Vector3(0, 0, 1))
        return (abs(error.dot(up)), (error - error.dot(up) * up).length)
    }

    /// Handled for 3 min while carried and turned through every orientation (the base pose
    /// turns at 3°/s): in the last minute the tilt is right to 2.5° in both cores (with the
    /// careful pace from power-up, (20, 20, 20)°/s still tilted it by 35° at 2 min), the offset
    /// is known to 1°/s, and the cores' verticals agree to 0.05° RMS there.
    @Test(arguments: offsets)
    func carriedAndTurnedOver(offset: Vector3) {
        let base = UncalibratedGyroTests.tilted
        var run = Run(offsetDegreesPerSecond: offset, motion: Self.handling(base: base, wanderDegreesPerSecond: 3))
        run.compareAfter = 120
        run.run(seconds: 180)
        let lastMinute = run.worstTilt.suffix(6)
        #expect(lastMinute.allSatisfy { $0.reference <= 2.5 && $0.fixed <= 2.5 }, "offset \(offset) °/s, worst tilt per 10 s: \(run.summary)")
        let error = Self.biasError(run, base: base)
        #expect((error.along * error.along + error.across * error.across).squareRoot() <= 1, "offset \(offset) °/s: bias error \(error)")
        #expect(run.rmsDifference <= 0.05, "offset \(offset) °/s: fixed vs reference \(run.rmsDifference)° RMS")
    }

    /// Handled around one pose for 2 min: the offset's part across that pose's vertical is
    /// learnt to 1.5°/s; the part along it is not. Hand motion about a fixed pose turns
    /// that part into a tilt error at the hand's frequency, where a hand's own acceleration
    /// (the device 0.2 m from the wrist) looks the same to the accelerometer, so 6D cannot
    /// tell them apart; it stays a bounded wobble of a few degrees until the pose changes
    /// (or, in 9D, until the heading teaches it).
    @Test(arguments: offsets)
    func handledAroundOnePose(offset: Vector3) {
        let base = UncalibratedGyroTests.tilted
        var run = Run(offsetDegreesPerSecond: offset, motion: Self.handling(base: base, wanderDegreesPerSecond: 0))
        run.compareAfter = 60
        run.run(seconds: 120)
        let error = Self.biasError(run, base: base)
        #expect(error.across <= 1.5, "offset \(offset) °/s: bias error across the vertical \(error.across) °/s")
        #expect(run.rmsDifference <= 0.05, "offset \(offset) °/s: fixed vs reference \(run.rmsDifference)° RMS (2nd minute)")
    }

    /// 9D, handled around one pose: the heading teaches the part along the vertical that
    /// gravity cannot, so from the third minute the tilt is right to 1° in both cores, and
    /// the cores agree to 0.05° RMS there.
    @Test(arguments: offsets)
    func handledAroundOnePoseWithACompass(offset: Vector3) {
        var run = Run(offsetDegreesPerSecond: offset, motion: Self.handling(base: UncalibratedGyroTests.tilted, wanderDegreesPerSecond: 0))
        run.magnetic = true
        run.compareAfter = 120
        run.run(seconds: 180)
        #expect(run.worstTilt.suffix(6).allSatisfy { $0.reference <= 1 && $0.fixed <= 1 }, "offset \(offset) °/s, worst tilt per 10 s: \(run.summary)")
        #expect(run.rmsDifference <= 0.05, "offset \(offset) °/s: fixed vs reference \(run.rmsDifference)° RMS (3rd minute)")
    }
}
