/// One step of the fixed-point filter: the reference's `update` (Docs/fusion-reference.md),
/// operation by operation, in integers.
/// - gyro: rad/s, accel: g (Core Motion sign: gravity points down), mag: µT — Q16.16, device
///   frame. Inputs are clamped to ±64 rad/s, ±32 g, ±2048 µT (beyond every sensor's full
///   scale), which keeps every intermediate inside its integer range.
/// - mag: nil when no new magnetometer sample came with this one (a slower magnetometer).
/// - dt: seconds since the previous sample (from the timestamps), Q2.30: resolution 0.93 ns.
///   Outside (0, 1 s) the sample is ignored and the state is unchanged.
/// No allocation, no floating point. Per sample: one 1/|a|; divisions only when dt moves by
/// > 2 % (gains), during the first τ_acc (dt/elapsed) and per magnetometer sample (one, plus
/// dt/elapsed during the first τ_mag).
@inlinable
public func fixedFusionUpdate(
    state s: inout FixedFusionState, coefficients c: FixedFusionCoefficients,
    gyro: FixedVector3<Q16>, accel: FixedVector3<Q16>, mag: FixedVector3<Q16>?, dt: Q30
) {
    let step = Int64(dt.raw)
    guard step > 0, step < 1 << 30 else { return }
    let gyro = clampedSample(gyro, limit: 64)
    let accel = clampedSample(accel, limit: 32)
    s.lastGyro = gyro
    s.lastAccel = accel
    if isStale(s.gains.dt, for: step) { s.gains = FixedFusionGains(coefficients: c, dt: step) }
    s.elapsed = advanced(s.elapsed, by: step)
    // Running-mean start of the low-passes while they are younger than τ_acc: dt / elapsed.
    let warmUpGain = s.elapsed < c.accelerometerTau ? ((step &<< 30) &+ s.elapsed / 2) / s.elapsed : 0

    let specificForce = -accel
    let gyroWide = WideVector3(gyro)
    s.rest.update(
        gyro: gyroWide, specificForce: WideVector3(specificForce), dt: step, gains: s.gains, warmUpGain: warmUpGain,
        coefficients: c)

    // Gyro integration: θ = (ω − b)·dt (Q40 rad → Q3.29), the exact rotation-vector quaternion.
    let rate = gyroWide - s.bias
    @inline(__always) func angle(_ v: Int64) -> Q29 {
        Q29(raw: saturatedInt32(roundingShiftRight(wideProduct(step, v), by: 11)))
    }
    let delta = FixedQuaternion(rotationVector: FixedVector3(x: angle(rate.x), y: angle(rate.y), z: angle(rate.z)))
    s.gyroAttitude = (s.gyroAttitude * delta).renormalized()

    let correction = FixedInclinationCorrection.update(
        inclination: &s.inclination, lowPass: &s.accelLowPass, decimation: &s.inclinationDecimation,
        inertialForce: s.gyroAttitude.rotationMatrix.timesWide(specificForce), gains: s.gains,
        warmUpGain: warmUpGain)

    // One rotation matrix of q6 serves the bias estimator (rows 0, 1; only on the samples its
    // decimated in-motion part runs) and the magnetometer; computed only when one needs it.
    let r6: FixedMatrix3? =
        (mag != nil && advanced(s.magneticDt, by: step) >= s.gains.magneticMinimumInterval) || s.biasEstimator.runsMotionPart(gains: s.gains, warmUpGain: warmUpGain, coefficients: c)
        ? s.attitude6D.rotationMatrix : nil
    // Beyond biasClip only once the heading can confirm it (9D, see FixedHeadingCorrection).
    let biasLimit = s.heading.isInitialised && c.verticalBiasRate > 0 ? c.magneticBiasClip : c.biasClip
    s.biasEstimator.update(
        bias: &s.bias, rest: s.rest, correction: correction, rows: r6, dt: step, gains: s.gains,
        warmUpGain: warmUpGain, limit: biasLimit, coefficients: c)

    s.magneticDt = advanced(s.magneticDt, by: step)
    if let mag, s.magneticDt >= s.gains.magneticMinimumInterval {
        let magDt = s.magneticDt
        s.magneticDt = 0
        if isStale(s.magneticGains.dt, for: magDt) { s.magneticGains = FixedMagneticGains(coefficients: c, dt: magDt) }
        let turning = s.rest.gyroReference.stage2.squaredLengthQ48 >= c.magneticNewFieldMinRateSquared
        let rows = r6!
        let biasGain = s.heading.update(
            magEarth: s.heading.heading.rotateAboutVertical(rows * clampedSample(mag, limit: 2048)), dt: magDt,
            gains: s.magneticGains, turning: turning, learnsBias: warmUpGain == 0 && s.rest.sinceRest >= c.magneticBiasRestHold, coefficients: c)
        if biasGain > 0 {
            FixedGyroBiasEstimator.learnAlongVertical(
                bias: &s.bias, headingError: s.heading.lastError, gain: biasGain, up: rows.row2, limit: c.magneticBiasClip)
        }
    }
    if s.heading.accuracy < c.pi {
        // drift (Q30 rad/s) · dt (Q30 s) = Q60 → Q40.
        let drift = roundingShiftRight(Int64(c.parameters.headingDriftRate.raw) &* step, by: 20)
        s.heading.accuracy = Swift.min(s.heading.accuracy &+ drift, c.pi)
    }
}

/// Each component clamped to ±limit (an integer in the sample's unit).
@inlinable @inline(__always)
func clampedSample(_ v: FixedVector3<Q16>, limit: Int32) -> FixedVector3<Q16> {
    let bound = limit &<< 16
    @inline(__always) func c(_ x: Q16) -> Q16 { Q16(raw: Swift.min(Swift.max(x.raw, -bound), bound)) }
    return FixedVector3(x: c(v.x), y: c(v.y), z: c(v.z))
}

extension FixedQuaternion {
    /// v rotated by this quaternion when it is a rotation about z, (w, 0, 0, z) — the heading:
    /// (c·v_x − s·v_y, s·v_x + c·v_y, v_z) with c = w² − z², s = 2wz. Seven multiplies instead
    /// of the product q_h ⊗ q6 and a second rotation matrix.
    @inlinable @inline(__always)
    func rotateAboutVertical(_ v: FixedVector3<Q16>) -> FixedVector3<Q16> {
        let (w, z) = (Int64(self.w.raw), Int64(self.z.raw))
        let cosine = roundingShiftRight(w &* w &- z &* z, by: 30)  // Q30
        let sine = roundingShiftRight(w &* z, by: 29)  // 2wz, Q30
        let (x, y) = (Int64(v.x.raw), Int64(v.y.raw))
        return FixedVector3(
            x: Q16(raw: saturatedInt32(roundingShiftRight(cosine &* x &- sine &* y, by: 30))),
            y: Q16(raw: saturatedInt32(roundingShiftRight(sine &* x &+ cosine &* y, by: 30))), z: v.z)
    }
}
