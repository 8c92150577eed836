// A hash of the fixed-point filter's whole state after every sample, for changes that must not
// change one output bit (issue #28): compiled with the IMUFusion sources by
// Scripts/fusion-state-hash.sh, run on every BROAD trial in four ways — every sample at 286 Hz
// with the magnetometer on each; every third sample (95 Hz) with the magnetometer on every fourth
// of those; every sample with the magnetometer on every fourth; and dt straddling 256 Hz by
// ± 10 % (seeded), so that the decimation changes between 16 and 8 samples in mid-span.
// Prints one line per trial (four FNV-1a hashes) and their XOR; two checkouts print the same
// lines exactly when the runs are bit-identical in everything hashed: the attitude, the gyro
// attitude, the inclination, the heading, the bias, the low-passes, the rest test, the
// disturbance detector, the heading accuracy, the gyro's sensitivity and the outputs.
//
//     fusion-state-hash TRIAL.csv…
import Glibc



@inline(__always) func mix(_ h: inout UInt64, _ v: Int64) { h = (h ^ UInt64(bitPattern: v)) &* 0x100000001b3 }
func hashState(_ h: inout UInt64, _ s: FixedFusionState, _ c: FixedFusionCoefficients) {
    let o = s.output(coefficients: c)
    for q in [o.attitude, s.gyroAttitude, s.inclination, s.heading.heading] {
        mix(&h, Int64(q.w.raw)); mix(&h, Int64(q.x.raw)); mix(&h, Int64(q.y.raw)); mix(&h, Int64(q.z.raw))
    }
    for v in [s.bias, s.accelLowPass.stage1, s.accelLowPass.stage2, s.rest.gyroReference.stage2, s.rest.stillMean,
              s.biasEstimator.eastLowPass.stage2, s.biasEstimator.rotatedBiasLowPass.stage2] {
        mix(&h, v.x); mix(&h, v.y); mix(&h, v.z)
    }
    let d = s.heading.disturbance
    let xs: [Int64] = [s.heading.accuracy, Int64(s.heading.lastError.raw), d.currentNorm, d.currentSinDip, d.referenceNorm,
              d.referenceSinDip, d.candidateNorm, d.candidateSinDip, d.candidateDuration, d.undisturbedDuration,
              d.isDisturbed ? 1 : 0, s.rest.isAtRest ? 1 : 0, Int64(o.headingAccuracy.raw), o.isValid ? 1 : 0,
              s.heading.rejectionDuration, s.rest.sinceRest, s.elapsed, s.magneticDt]
    for x in xs { mix(&h, x) }
    // The gyro's sensitivity (issue 28): the estimate, its applied part, P's diagonal, the counts,
    // the pending turn and the field test's per-axis sums.
    let g = s.sensitivity, t = s.heading.deviceFixed
    for v in [g.estimate, g.applied, g.pendingTurnedPerAxis, t.turnedPerAxis] { mix(&h, v.x); mix(&h, v.y); mix(&h, v.z) }
    for x in [g.pxx, g.pyy, g.pzz, g.pxy, Int64(g.updates), Int64(g.rejected), g.pendingDirectionChange,
              g.pendingQuiet, t.turnedHorizontalX, t.turnedHorizontalY] { mix(&h, x) }
}
// dt scaled to straddle 256 Hz (the decimation's 16/8 boundary) with ±10 % deterministic jitter:
// the gains (and N) change mid-span.
func runJittered(_ steps: [Step]) -> UInt64 {
    let c = FixedFusionCoefficients()
    var s = FixedFusionState(coefficients: c)
    var h: UInt64 = 0xcbf29ce484222325
    var seed: UInt64 = 12345
    for (i, step) in steps.enumerated() {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        let jitter = 0.9 + 0.2 * Double(seed >> 11) / Double(1 << 53)
        let dt = (1.0 / 256.0) * jitter
        let mag = i % 3 == 0 ? step.mag : nil
        fixedFusionUpdate(state: &s, coefficients: c, gyro: step.gyro, accel: step.accel, mag: mag, dt: Q30(dt))
        hashState(&h, s, c)
    }
    return h
}
func run(_ steps: [Step], every: Int, magEvery: Int) -> UInt64 {
    let c = FixedFusionCoefficients()
    var s = FixedFusionState(coefficients: c)
    var h: UInt64 = 0xcbf29ce484222325
    var i = 0, n = 0, dtSum = 0.0
    for step in steps {
        i += 1
        dtSum += step.dt.doubleValue
        if i % every != 0 { continue }
        n += 1
        let mag = n % magEvery == 0 ? step.mag : nil
        fixedFusionUpdate(state: &s, coefficients: c, gyro: step.gyro, accel: step.accel, mag: mag, dt: Q30(dtSum))
        dtSum = 0
        hashState(&h, s, c)
    }
    return h
}
var all: UInt64 = 0
for path in CommandLine.arguments.dropFirst() {
    let steps = readTrial(path)
    let a = run(steps, every: 1, magEvery: 1), b = run(steps, every: 3, magEvery: 4), d = run(steps, every: 1, magEvery: 4)
    let e = runJittered(steps)
    all ^= a ^ b ^ d ^ e
    print(path.split(separator: "/").last!, String(a, radix: 16), String(b, radix: 16), String(d, radix: 16), String(e, radix: 16))
}
print("all", String(all, radix: 16))
