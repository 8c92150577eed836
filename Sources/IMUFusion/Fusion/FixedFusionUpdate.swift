/// One step of the fixed-point filter: the reference's `update` (Docs/fusion-reference.md),
/// operation by operation, in integers.
/// - gyro: rad/s, accel: g (Core Motion sign: gravity points down), mag: µT — Q16.16, device
///   frame. Inputs are clamped to ±64 rad/s, ±32 g, ±2048 µT (beyond every sensor's full
///   scale), which keeps every intermediate inside its integer range.
/// - mag: nil when no new magnetometer sample came with this one (a slower magnetometer).
/// - dt: seconds since the previous sample (from the timestamps), Q2.30: resolution 0.93 ns.
///   Outside (0, 1 s) the sample is ignored and the state is unchanged.
/// No allocation, no floating point. Per sample: the gyro step, the specific force into the
/// almost-inertial frame, sums; the rest test, the inclination correction (one 1/|a|) and the
/// in-motion bias every `biasDecimation`-th sample (`fixedFusionDecimatedStep`), the
/// magnetometer at most that often (`fixedFusionMagnetometerStep`). Divisions only when dt
/// moves by > 2 % (gains), on the decimated samples of the first τ_acc (span/elapsed) and per
/// magnetometer sample used (one, plus dt/elapsed during the first τ_mag).
/// Always inlined into its few callers (the filter, the benches, the firmware's loop): the
/// call's register saves, argument packing and the optional's tag test cost ≈ 20 of the ≈ 200
/// instructions of the per-sample path.
@inlinable @inline(__always)
public func fixedFusionUpdate(
    state s: inout FixedFusionState, coefficients c: FixedFusionCoefficients,
    gyro: FixedVector3<Q16>, accel: FixedVector3<Q16>, mag: FixedVector3<Q16>?, dt: Q30
) {
    let step = Int64(dt.raw)
    // A dt the gains serve is a valid one (`FixedFusionGains.freshDtHigh`): the validity is
    // tested only outside their range, where the gains are made again.
    if s.gains.areStale(for: step) {
        guard fixedFusionRefreshGains(state: &s, coefficients: c, dt: step) else { return }
    }
    let gyro = clampedSample(gyro, limit: 64)
    let accel = clampedSample(accel, limit: 32)
    s.lastGyro = gyro
    s.lastAccel = accel

    // Per sample, the decimated parts only sum their inputs (see `fixedFusionDecimatedStep`);
    // the span is also the time since `elapsedAtDecimation` and `magneticDtAtDecimation`.
    // The sums stay Q16.16 (widened on the decimated sample) and hold the acceleration, not
    // the specific force: no shifts and no negations per sample.
    s.decimation.span &+= step
    s.decimation.gyroSumQ16.add(gyro)
    s.decimation.groupAccelSumQ16.add(accel)
    // Every magnetometer sample is summed (here, while it is in registers); the step at the
    // end runs on their mean (see `fixedFusionMagnetometerStep`).
    if let mag {
        s.magneticSum.x &+= Int64(mag.x.raw)
        s.magneticSum.y &+= Int64(mag.y.raw)
        s.magneticSum.z &+= Int64(mag.z.raw)
        s.magneticCount &+= 1
    }

    // Gyro integration: θ = (ω − b)·dt (Q3.29), the reference's second-order step. The rate
    // is rounded to Q26 (1.5 × 10⁻⁸ rad/s, far below the angle's LSB over a step): |ω − b| ≤
    // 64 + 2 rad/s per component (clamped sample, bias range < 2 rad/s) < 2^6.05, as Q26
    // < 2^32.05, times dt (< 2^30) < 2^62.05: one 64-bit product, no 128-bit one. Below
    // dt = 1/17 s no component reaches Q3.29's ±4 rad (66/17 = 3.9 rad): no saturation.
    // The rate in Q26 is ω·2^10 − bias rounded (`negatedBiasQ26`: the same integer as rounding
    // ω·2^24 − bias from Q40).
    let negatedBias = s.negatedBiasQ26
    let rate = WideVector3(
        x: Int64(gyro.x.raw) &<< 10 &+ negatedBias.x, y: Int64(gyro.y.raw) &<< 10 &+ negatedBias.y,
        z: Int64(gyro.z.raw) &<< 10 &+ negatedBias.z)
    @inline(__always) func angle(_ v: Int64) -> Int64 { roundingShiftRight(v &* step, by: 27) }
    // θ's components as the Q29 raw integers, kept in Int64 (no round trip through Int32: in
    // the first branch the values fit, so truncation would be the identity).
    let theta: (x: Int64, y: Int64, z: Int64)
    if _fastPath(step < (1 << 30) / 17) {
        theta = (angle(rate.x), angle(rate.y), angle(rate.z))
    } else {
        @inline(__always) func q29(_ v: Int64) -> Int64 { Int64(saturatedInt32(angle(v))) }
        theta = (q29(rate.x), q29(rate.y), q29(rate.z))
    }
    // The attitude is unit to a few LSB (renormalised on every decimated step, see
    // `fixedFusionDecimatedStep`) and so is a normalised step: their product too, the
    // roundings of step and product moving | |q|² − 1 | by a few LSB per sample (at most
    // 14.9 LSB in between renormalisations in `FixedFusionStateTests`). A larger step is
    // renormalised at once.
    // The usual step, |h|² ≤ 2⁻⁹ (|θ| ≤ 0.088 rad), needs neither the saturation of |h|² nor
    // the renormalisation (see `FixedQuaternion.integrationStep`): one compare decides, the
    // same integers as the general path below, which takes the rest.
    let squaredHalfAngle = FixedQuaternion.squaredHalfAngleQ30(theta.x, theta.y, theta.z)
    if _fastPath(squaredHalfAngle <= UInt64(FixedQuaternion.normalisedStepLimit)) {
        let delta = FixedQuaternion.integrationStepRaw(
            theta.x, theta.y, theta.z, squaredHalfAngle: Int64(squaredHalfAngle))
        s.gyroAttitude = FixedQuaternion.unitProduct(s.gyroAttitude, w: delta.w, x: delta.x, y: delta.y, z: delta.z)
    } else {
        s.gyroAttitude = fixedFusionLargeGyroStep(s.gyroAttitude, theta.x, theta.y, theta.z)
    }
    // The specific force into the almost-inertial frame, group by group (see
    // `FixedFusionDecimation.inertialForceSum`); a group cut short ends in
    // `fixedFusionDecimatedStep`.
    s.decimation.groupPhase &+= 1
    if s.decimation.groupPhase == 2 { s.decimation.groupAttitude = s.gyroAttitude }
    let length = s.gains.forceGroupLength
    if s.decimation.groupPhase >= length {
        s.decimation.endGroup(attitude: length > 1 ? s.decimation.groupAttitude : s.gyroAttitude)
    }
    // Counted down here, where it is compared: one decrement of memory, no register.
    s.decimation.remaining &-= 1
    if s.decimation.remaining == 0 {
        // The magnetometer step, when due on this sample, runs at its end.
        fixedFusionDecimatedStep(state: &s, coefficients: c, magnetometerSampled: mag != nil)
    }
    // (After a magnetometer step in `fixedFusionDecimatedStep`, magneticDt is 0 here.)
    if mag != nil, s.magneticDtAtDecimation &+ s.decimation.span >= s.gains.magneticMinimumInterval {
        // magneticDt ≥ interval without its saturation: the interval (< 1 s) is below the limit,
        // and base + span (≤ 2^40 + 8.2 s) cannot overflow.
        // The heading accuracy's growth without magnetometer (the reference's per-sample
        // min(accuracy + rate·dt, π)) is folded in lazily: `heading.accuracy` holds it as of the
        // last magnetometer sample used, and `headingAccuracy` adds the drift over `magneticDt`
        // (the same value: the growth is linear and the clamp at π monotone).
        fixedFusionMagnetometerStep(state: &s, coefficients: c)
    }
}

/// The gyro step for |h|² > 2⁻⁹ (|θ| > 0.088 rad in one sample: > 25 rad/s at 286 Hz), with
/// the saturation of |h|² and a renormalisation. Out of line: rare.
@usableFromInline @inline(never)
func fixedFusionLargeGyroStep(_ attitude: FixedQuaternion, _ hx: Int64, _ hy: Int64, _ hz: Int64) -> FixedQuaternion {
    let delta = FixedQuaternion.integrationStepRaw(hx, hy, hz)
    if delta.isUnit {
        let turned = FixedQuaternion.unitProduct(attitude, w: delta.w, x: delta.x, y: delta.y, z: delta.z)
        return delta.isNormalised ? turned : turned.renormalized()
    }
    return (attitude * FixedQuaternion(rawStep: delta.w, delta.x, delta.y, delta.z)).renormalized()
}

/// On a dt outside the gains' range: false when the update ignores it (outside (0, 1 s): the
/// state unchanged); else new gains for it (it moved by more than 2 %), the decimation's
/// countdown moved by the change of biasDecimation but kept ≥ 1 (the update's decrement then
/// reaches 0 on the sample that runs the parts, the excess counted apart: see
/// `FixedFusionDecimation.remaining`), and true. Out of line: rare.
@usableFromInline @inline(never)
func fixedFusionRefreshGains(state s: inout FixedFusionState, coefficients c: FixedFusionCoefficients, dt: Int64) -> Bool {
    guard dt > 0, dt < 1 << 30 else { return false }
    let before = s.gains.biasDecimation
    s.gains = FixedFusionGains(coefficients: c, dt: dt)
    let moved = s.decimation.remaining &+ s.gains.biasDecimation &- before
    s.decimation.remaining = Swift.max(moved, 1)
    s.decimation.excessSamples = Swift.max(1 &- moved, 0)
    return true
}

/// The decimated parts, every `gains.biasDecimation`-th sample, in the reference's order: the
/// rest test (on this sample's `lastGyro` and `lastAccel` against the references), the
/// inclination correction on the mean inertial force, the in-motion bias step
/// (`fixedFusionDecimatedParts`); then the magnetometer step when a sample came
/// (`magnetometerSampled`) and it is due, as `fixedFusionUpdate` would run it next: at a steady
/// rate both run every `biasDecimation`-th sample, on the same one, and the magnetometer step
/// takes the q6 formed there (`attitude6DAtDecimation`). The parts' frame is gone before the
/// magnetometer step's (the firmware's stack does not hold both).
/// Out of line: the per-sample path stays short.
@usableFromInline @inline(never)
func fixedFusionDecimatedStep(
    state s: inout FixedFusionState, coefficients c: FixedFusionCoefficients, magnetometerSampled: Bool
) {
    fixedFusionDecimatedParts(state: &s, coefficients: c, count: s.gains.biasDecimation &+ s.decimation.excessSamples)
    // magneticDt is magneticDtAtDecimation here (the span starts again).
    if magnetometerSampled, s.magneticDtAtDecimation >= s.gains.magneticMinimumInterval {
        fixedFusionMagnetometerStep(state: &s, coefficients: c)
    }
}

/// The decimated parts themselves (see `fixedFusionDecimatedStep`).
@usableFromInline @inline(never)
func fixedFusionDecimatedParts(state s: inout FixedFusionState, coefficients c: FixedFusionCoefficients, count: Int32) {
    if s.decimation.groupPhase > 0 { s.decimation.endGroup(attitude: s.gyroAttitude) }
    // What the parts below need of the sums and the gains, as means and scalars: no copy of
    // either struct (a memcpy and a block move per run).
    let span = s.decimation.span
    let gyroMean = s.decimation.mean(s.decimation.gyroSumWide, count: count)
    let forceMean = s.decimation.mean(s.decimation.forceSumWide, count: count)
    // The rotated forces' sum: the rotations' changes and, once, the forces' own sum (see
    // `FixedFusionDecimation.inertialForceSum`).
    let inertialMean = s.decimation.mean(s.decimation.inertialForceSum + s.decimation.forceSumWide, count: count)
    let (restStage, biasStage, restBiasGain) = (s.gains.restStageDecimated, s.gains.biasStage, s.gains.restBiasDecimated)
    s.elapsedAtDecimation = advanced(s.elapsedAtDecimation, by: span)
    s.magneticDtAtDecimation = advanced(s.magneticDtAtDecimation, by: span)
    s.decimation = FixedFusionDecimation(remaining: s.gains.biasDecimation)
    let gyro = WideVector3(s.lastGyro)
    // The clamped sample's negation cannot overflow.
    let accel = WideVector3(s.lastAccel)
    let specificForce = WideVector3(x: 0 &- accel.x, y: 0 &- accel.y, z: 0 &- accel.z)
    // The per-sample products leave the attitude's norm to drift by a few LSB (see
    // `fixedFusionUpdate`): back to unit here, before the parts below use it.
    s.gyroAttitude = s.gyroAttitude.renormalized()
    // Running-mean start of the low-passes while they are younger than τ_acc: span / elapsed
    // (span ≤ 8 · 1.02 s, so span · 2^30 fits).
    let warmUpGain = s.elapsed < c.accelerometerTau ? ((span &<< 30) &+ s.elapsed / 2) / s.elapsed : 0
    let wasAtRest = s.rest.isAtRest
    s.rest.update(
        gyro: gyro, specificForce: specificForce, gyroMean: gyroMean, forceMean: forceMean, span: span,
        stageGain: restStage, warmUpGain: warmUpGain, biasCenter: s.biasCenter, coefficients: c)
    // A rest's first span: the gravity low-pass starts again from this span's mean force and the
    // inclination turns onto it exactly (see the reference).
    var relevel = s.rest.isAtRest && !wasAtRest
    // At rest with a rate beyond restRelevelGap from the estimate: the reference's re-levelling
    // (an offset nobody calibrated): the bias jumps to the mean rate at rest, and the gravity
    // low-pass starts again as above.
    if s.rest.isAtRest && c.parameters.restBiasEnabled {
        s.biasMeasured = true
        let measured = s.rest.stillMean.componentsClamped(c.restBiasClip)
        let gap = measured - s.bias
        if gap.x.magnitude > c.restRelevelGap.magnitude || gap.y.magnitude > c.restRelevelGap.magnitude
            || gap.z.magnitude > c.restRelevelGap.magnitude {
            s.bias = measured
            s.biasCenter = measured
            s.biasEstimator.rememberBias(s.bias)
            relevel = true
        }
    }
    let correction = FixedInclinationCorrection.update(
        inclination: &s.inclination, lowPass: &s.accelLowPass, inertial: inertialMean, stageGain: biasStage,
        warmUpGain: warmUpGain, restart: relevel)
    // The bias is updated in a local and stored once (its `didSet` keeps `negatedBiasQ26`).
    var bias = s.bias
    // The turn about the vertical over the span, for the device-fixed field test: the span's
    // mean rate less the bias before this step's update, along up (row 2 of R(q6)).
    // q6 once for the turn and the in-motion part: the turn needs row 2 of R(q6) on every run,
    // the in-motion part rows 0 and 1 on every second one only.
    let attitude6D = s.unitAttitude6D
    s.attitude6DAtDecimation = attitude6D
    // Rows 0 and 1 of R(q6) only where the in-motion part ends its pair (see below).
    // (And on every run of the sensitivity's turn, for its horizontal part: while the field test
    // has an anchor — its sums before one are never read, it starts them again there, so 6D
    // skips them — or a sensitivity is applied to the gyro frame.)
    let pairEnds = c.parameters.motionBiasEnabled && s.biasEstimator.pendingSpan != 0
    let sensitivityTurn = c.learnsGyroSensitivity
        && (s.heading.deviceFixed.hasAnchor || s.sensitivity.correctionFactor != .zero)
    let rows = pairEnds || sensitivityTurn
        ? attitude6D.unitRotationMatrix
        : FixedMatrix3(row0: .zero, row1: .zero, row2: attitude6D.unitRotationRow2)
    if c.testsDeviceFixedField {
        let turn = s.heading.deviceFixed.addTurn(rate: gyroMean - bias, up: rows.row2, span: span)
        if c.headingSensitivityError > 0 {
            s.heading.turnedSinceMagnetometer = Swift.min(s.heading.turnedSinceMagnetometer &+ Swift.abs(turn), 1 << 40)
        }
        // The magnetometer step on this sample reads the field in the corrected frame (the
        // in-motion part below keeps R(q6) before it, as the reference's bias step does).
        if sensitivityTurn && fixedFusionSensitivityTurn(state: &s, rate: gyroMean - bias, rows: rows, span: span) {
            s.attitude6DAtDecimation = s.unitAttitude6D
        }
    }
    // The in-motion part on every second run, on the pair's corrections and span.
    if c.parameters.motionBiasEnabled {
        let pendingSpan = s.biasEstimator.pendingSpan
        if pendingSpan == 0 {
            s.biasEstimator.pendingSpan = span
            s.biasEstimator.pendingCorrectionX = correction.x
            s.biasEstimator.pendingCorrectionY = correction.y
        } else {
            let pairSpan = pendingSpan &+ span
            let pairCorrection = (
                x: s.biasEstimator.pendingCorrectionX &+ correction.x, y: s.biasEstimator.pendingCorrectionY &+ correction.y)
            s.biasEstimator.pendingSpan = 0
            // During the first τ_acc: pair span / elapsed (< 3 s · 2^30 / elapsed, elapsed ≥ pairSpan).
            let pairWarmUpGain = warmUpGain > 0 ? ((pairSpan &<< 30) &+ s.elapsed / 2) / s.elapsed : 0
            s.biasEstimator.update(
                bias: &bias, isAtRest: s.rest.isAtRest, correction: pairCorrection,
                rows: rows, span: pairSpan, stageGain: s.gains.motionBiasStage,
                warmUpGain: pairWarmUpGain, limit: s.biasLimit(c), offsetMeasured: s.biasMeasured, coefficients: c)
        }
    }
    // The rest bias: the N per-sample steps towards the rest mean (which changes only here) as
    // one step of their combined gain.
    if s.rest.isAtRest && c.parameters.restBiasEnabled {
        FixedGyroBiasEstimator.restStep(
            bias: &bias, reference: s.rest.stillMean, gain: restBiasGain, clip: s.biasLimit(c))
    }
    s.bias = bias
}

extension FixedFusionState {
    /// The bias range: the datasheets' offsets (restBiasClip), magneticBiasClip once the
    /// heading can confirm it (9D, see FixedHeadingCorrection).
    @inlinable @inline(__always)
    func biasLimit(_ c: FixedFusionCoefficients) -> Int64 {
        heading.isInitialised && c.verticalBiasRate > 0 ? c.magneticBiasClip : c.restBiasClip
    }
}

/// On a magnetometer sample that comes at least `gains.magneticMinimumInterval` after the
/// last step: the heading correction and the disturbance detector on the mean of the samples
/// since then, turned forward to this sample (`FixedFusionState.magneticMean`). Out of line,
/// like `fixedFusionDecimatedStep`.
@usableFromInline @inline(never)
func fixedFusionMagnetometerStep(state s: inout FixedFusionState, coefficients c: FixedFusionCoefficients) {
    // q6 of this sample: the decimated step's when it ran on it (the span starts again there,
    // and every sample adds dt > 0 to it), else formed here. Nothing between that step and this
    // one changes the inclination or the gyro attitude.
    let attitude6D = s.decimation.span == 0 ? s.attitude6DAtDecimation : s.unitAttitude6D
    let magDt = s.magneticDt
    let mag = FixedFusionState.magneticMean(
        sum: s.magneticSum, count: s.magneticCount, magDt: magDt, gyro: s.lastGyro, negatedBiasQ26: s.negatedBiasQ26)
    s.magneticSum = .zero
    s.magneticCount = 0
    // The accuracy's drift since the last magnetometer sample used, this sample's dt included
    // (the reference adds each sample's before its magnetometer step).
    s.heading.accuracy = s.heading.accuracy(drifting: magDt, coefficients: c)
    s.magneticDtAtDecimation = 0 &- s.decimation.span  // magneticDt = 0 from here (span ∈ [0, 2^34])
    if s.magneticGains.areStale(for: magDt) { s.magneticGains = FixedMagneticGains(coefficients: c, dt: magDt) }
    // The gyro's low-pass of clamped (±64 rad/s) samples stays within ±64: no clamp needed.
    let turning = s.rest.gyroReference.stage2.squaredLengthQ48OfBounded >= c.magneticNewFieldMinRateSquared
    // The vertical bias learns once the inclination has settled and no rest measured the bias lately.
    let learnsBias = s.elapsed >= c.accelerometerTau && s.rest.sinceRest >= c.magneticBiasRestHold
    let field6D = attitude6D.rotatedField(mag)
    if c.testsDeviceFixedField {
        // With the sensitivity learnt: the span it returns, or a pending turn at a turning sample,
        // goes to the estimator (out of line: rare).
        let learning = c.learnsGyroSensitivity
        let pending = learning && s.sensitivity.hasPending
        let span = s.heading.deviceFixed.update(
            field: field6D, quiet: !turning, maxRatio: Int64(c.parameters.deviceFixedFieldMaxRatio.raw),
            minTurn: Int64(c.parameters.deviceFixedFieldMinTurn.raw),
            followRatio: c.deviceFixedFieldFollowRatio, learning: learning, pending: pending)
        if span != nil || turning && pending {
            fixedFusionLearnSensitivity(
                state: &s, span: span, field: field6D, turning: turning, duration: magDt, coefficients: c)
        }
    }
    let biasGain = s.heading.update(
        magEarth: s.heading.heading.rotateAboutVertical(field6D),
        dt: magDt, gains: s.magneticGains, turning: turning, learnsBias: learnsBias, atRest: s.rest.isAtRest,
        coefficients: c)
    if biasGain > 0 {
        var bias = s.bias  // a local: `bias` is observed (see `negatedBiasQ26`)
        FixedGyroBiasEstimator.learnAlongVertical(
            bias: &bias, headingError: s.heading.lastError, gain: biasGain, up: attitude6D.unitRotationMatrix.row2,
            limit: c.magneticBiasClip)
        s.bias = bias
    }
}

extension FixedFusionState {
    /// The heading accuracy (Q40 rad) after the last sample: `heading.accuracy` with the drift
    /// since the last magnetometer sample used (see `fixedFusionUpdate`).
    @inlinable
    public func headingAccuracy(coefficients c: FixedFusionCoefficients) -> Int64 {
        heading.accuracy(drifting: magneticDt, coefficients: c)
    }
}

extension FixedHeadingCorrection {
    /// `accuracy` after `duration` (Q30 s) without a magnetometer sample: plus
    /// headingDriftRate · duration, at most π (Q40 rad). For one sample's dt the same integer as
    /// rounding rate·dt (Q60) to Q40.
    @inlinable @inline(__always)
    func accuracy(drifting duration: Int64, coefficients c: FixedFusionCoefficients) -> Int64 {
        guard accuracy < c.pi else { return accuracy }
        // rate (Q30 rad/s, < 2^31) · duration·2^10 (Q40 s, ≤ 2^50) / 2^30 = Q40 rad.
        let drift = wideProduct(Int64(c.parameters.headingDriftRate.raw), duration &<< 10)
        return Swift.min(accuracy &+ drift, c.pi)
    }
}

/// Each component clamped to ±limit (a power of two in the sample's unit, ≤ 2^14).
/// Samples are almost always inside: x is in [−bound, bound) exactly when x + bound (wrapping),
/// read unsigned, is below 2·bound, a power of two, so one OR of the three and one compare
/// decide for all of them; otherwise (x = +bound included, which clamps to itself) each is clamped.
@inlinable @inline(__always)
func clampedSample(_ v: FixedVector3<Q16>, limit: Int32) -> FixedVector3<Q16> {
    let bound = limit &<< 16
    @inline(__always) func offset(_ x: Q16) -> UInt32 { UInt32(bitPattern: x.raw &+ bound) }
    if offset(v.x) | offset(v.y) | offset(v.z) < UInt32(bitPattern: bound) &<< 1 { return v }
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
        // |(c, s)| = w² + z² ≤ 1 + 2⁻²⁰ (a unit heading) and v is a rotated clamped sample
        // (`rotatedField`: |v| < 2^30.2 raw), so |result| < 2^31: no saturation needed.
        let (x, y) = (Int64(v.x.raw), Int64(v.y.raw))
        return FixedVector3(
            x: Q16(raw: Int32(truncatingIfNeeded: roundingShiftRight(cosine &* x &- sine &* y, by: 30))),
            y: Q16(raw: Int32(truncatingIfNeeded: roundingShiftRight(sine &* x &+ cosine &* y, by: 30))), z: v.z)
    }
}
