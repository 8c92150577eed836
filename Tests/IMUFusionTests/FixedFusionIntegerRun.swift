import IMUFusion

/// A synthetic run generated in integers only: the truth is integrated with the fixed-point
/// quaternion, the sensors are the truth's gravity and field rotated into the device frame
/// plus noise from a 64-bit LCG, dt is jittered ±20 % around 5 ms. No libm call anywhere, so
/// the input stream is the same bit for bit on every platform — which is what makes a
/// recorded hash of the filter's output a legitimate test of determinism.
struct FixedFusionIntegerRun {
    var coefficients = FixedFusionCoefficients()
    var state: FixedFusionState
    var truth = FixedQuaternion(w: Q30(raw: 1_038_185_185), x: Q30(raw: 245_000_000), y: Q30(raw: 122_500_000), z: .zero)
        .normalized()
    var random: UInt64 = 0x2545_F491_4F6C_DD1D
    var step = 0
    /// FNV-1a over every output of every step.
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var useMagnetometer = true

    init() { state = FixedFusionState(coefficients: coefficients) }

    /// Uniform in −amplitude … amplitude (raw units).
    mutating func noise(_ amplitude: Int32) -> Int32 {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int32(truncatingIfNeeded: Int64(random >> 33) % (2 * Int64(amplitude) + 1) - Int64(amplitude))
    }

    mutating func noisy(_ v: FixedVector3<Q16>, _ amplitude: Int32) -> FixedVector3<Q16> {
        FixedVector3(x: Q16(raw: v.x.raw &+ noise(amplitude)), y: Q16(raw: v.y.raw &+ noise(amplitude)),
                     z: Q16(raw: v.z.raw &+ noise(amplitude)))
    }

    /// The rate (rad/s, Q16) at a step: rest, slow turn, fast turn, in a 30 s cycle at 200 Hz.
    func rate(at step: Int) -> FixedVector3<Q16> {
        switch (step / 2000) % 3 {
        case 0: return .zero
        case 1: return FixedVector3(x: Q16(raw: 13_107), y: Q16(raw: -19_661), z: Q16(raw: 52_429))  // (0.2, −0.3, 0.8)
        default: return FixedVector3(x: Q16(raw: -131_072), y: Q16(raw: 98_304), z: Q16(raw: 196_608))  // (−2, 1.5, 3)
        }
    }

    mutating func advance(steps: Int) {
        let bias = FixedVector3(x: Q16(raw: 686), y: Q16(raw: -457), z: Q16(raw: 572))  // (0.6, −0.4, 0.5) °/s
        let down = FixedVector3(x: Q16.zero, y: .zero, z: Q16(raw: -65_536))
        let field = FixedVector3(x: Q16.zero, y: Q16(integer: 20), z: Q16(integer: -45))
        for _ in 0..<steps {
            let dt = Q30(raw: 5_368_709 &+ noise(1_073_742))  // 5 ms ± 1 ms
            let rate = self.rate(at: step)
            truth = (truth * FixedQuaternion(angularRate: rate, interval: dt)).renormalized()
            step += 1
            let gyro = noisy(rate + bias, 343)  // ±0.3 °/s
            let accel = noisy(truth.inverseRotate(down), 655)  // ±0.01 g
            let mag = useMagnetometer && step % 4 == 0 ? noisy(truth.inverseRotate(field), 19_661) : nil  // ±0.3 µT
            fixedFusionUpdate(state: &state, coefficients: coefficients, gyro: gyro, accel: accel, mag: mag, dt: dt)
            record(state.output(coefficients: coefficients))
        }
    }

    mutating func record(_ o: FixedFusionOutput) {
        @inline(__always) func mix(_ value: Int32) {
            for shift in stride(from: 0, to: 32, by: 8) {
                hash = (hash ^ UInt64(UInt32(bitPattern: value) >> UInt32(shift) & 0xFF)) &* 0x0000_0100_0000_01B3
            }
        }
        for v in [o.attitude.w.raw, o.attitude.x.raw, o.attitude.y.raw, o.attitude.z.raw,
                  o.gravity.x.raw, o.gravity.y.raw, o.gravity.z.raw,
                  o.userAcceleration.x.raw, o.userAcceleration.y.raw, o.userAcceleration.z.raw,
                  o.rotationRate.x.raw, o.rotationRate.y.raw, o.rotationRate.z.raw,
                  o.gyroBias.x.raw, o.gyroBias.y.raw, o.gyroBias.z.raw, o.headingAccuracy.raw,
                  o.isAtRest ? 1 : 0, o.isMagneticallyDisturbed ? 1 : 0, o.isValid ? 1 : 0] {
            mix(v)
        }
    }

    /// The angle θ between the estimate and the truth as 1 − |⟨q, truth⟩| = 1 − cos(θ/2) ≈ θ²/8 (Q2.30 raw).
    var misalignment: Int64 {
        let q = state.attitude
        let dot = Int64(q.w.raw) * Int64(truth.w.raw) + Int64(q.x.raw) * Int64(truth.x.raw)
            + Int64(q.y.raw) * Int64(truth.y.raw) + Int64(q.z.raw) * Int64(truth.z.raw)
        return (1 << 30) - Int64(dot.magnitude >> 30)
    }
}
