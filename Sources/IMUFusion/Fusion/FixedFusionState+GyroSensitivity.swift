// Issue 28: the gyro's sensitivity error learnt from the turns the device-fixed field test
// shows to be the earth's (`FixedGyroSensitivityEstimator`), on while
// `FixedFusionCoefficients.learnsGyroSensitivity`. The reference's
// `FusionState+GyroSensitivity` in integers: the decimated step sums the turn per device axis
// and, with a sensitivity applied, turns the gyro frame back by the span's share of it on every
// axis; the magnetometer step holds and learns the judged turns.

/// The decimated step's part: `rate` the span's mean rate less the bias before this step
/// (Q40 rad/s, |components| ≤ 68 rad/s), `rows` R(q6) (unit rows, Q30), `span` Q30 s (≤ 8 ·
/// 1.02 s after a run of 1 s gaps: < 2^33.1). The turn per device axis h_i = up_i·(rate_i·span)
/// and about the 6D frame's horizontal axes (rows 0 and 1 · rate·span): rate·span per axis
/// first, the rate as Q22 (< 2^28.1) times span (< 2^61.2) to Q20 rad (< 2^29.1, |vector| <
/// 2^29.9; 10⁻⁶ rad, far below the 1° a turn's direction is read to), then the products with the
/// rows (Q30: < 2^59.1 each, a row's dot product < 2^59.9 by |row| = 1) to Q30 rad (< 2^39.1).
/// Then, with a sensitivity applied, the gyro frame turns back by the span's correction
/// (`fixedFusionSensitivityCorrection`; nothing at all while nothing is applied, so the output
/// is then the estimator's off bit for bit). Returns whether the gyro frame moved. Inlined into
/// the decimated parts (the call and the rows passed through memory cost ~15 % of it).
@inline(__always)
func fixedFusionSensitivityTurn(state s: inout FixedFusionState, rate: WideVector3, rows: FixedMatrix3, span: Int64) -> Bool {
    @inline(__always) func turned(_ r: Int64) -> Int64 { ((r &>> 18) &* span) &>> 32 }
    let (tx, ty, tz) = (turned(rate.x), turned(rate.y), turned(rate.z))
    @inline(__always) func dot(_ row: FixedVector3<Q30>) -> Int64 {
        (Int64(row.x.raw) &* tx &+ Int64(row.y.raw) &* ty &+ Int64(row.z.raw) &* tz) &>> 20
    }
    let up = rows.row2
    let perAxis = WideVector3(
        x: (Int64(up.x.raw) &* tx) &>> 20, y: (Int64(up.y.raw) &* ty) &>> 20, z: (Int64(up.z.raw) &* tz) &>> 20)
    s.heading.deviceFixed.addTurn(perAxis: perAxis, horizontalX: dot(rows.row0), horizontalY: dot(rows.row1))
    let e = s.sensitivity.correctionFactor
    guard e.x != 0 || e.y != 0 || e.z != 0 else { return false }
    fixedFusionSensitivityCorrection(state: &s, factor: e, rate: rate, span: span)
    return true
}

/// The gyro frame turned on the right by the rotation vector z = −ε + ½ θ × ε, ε = e ⊙ θ: the
/// reference's `sensitivityCorrection` (the per-sample division of the rate by 1 + applied on
/// every axis, to third order in the span's turn θ; its comment has the algebra and the bound).
/// `factor` e (Q30, e_i in [−1, ⅓]: |·| ≤ 2^30), `rate` and `span` as for
/// `fixedFusionSensitivityTurn`. Formats:
/// - θ_i = rate_i·span as Q23 rad: the rate rounded to Q23 (|·| < 2^29.1) times span (< 2^33.1)
///   is < 2^62.2, rounded to Q23 (< 2^32.2; 1.2·10⁻⁷ rad, rounded rather than floored: a floor's
///   half LSB times e on every span, at rest too, would turn the frame steadily). Then clamped
///   at ±4 rad (2^25) per axis: a span turns at most 64 rad/s · 56 ms = 3.6 rad at 285.7 Hz; more
///   only over the long spans after gaps, where the series (which needs |θ| < π) means nothing
///   and the bound just keeps the ranges.
/// - ε_i = e_i·θ_i: Q53, |·| ≤ 2^55, rounded to Q29 (≤ 2^31, 1.9·10⁻⁹ rad).
/// - ½ θ × ε: products Q23·Q29 = Q52 (≤ 2^56 each, a difference ≤ 2^57), halved to Q29 (≤ 2^33).
/// - z (Q29, ≤ 2^33.4) saturated into Int32 (±4 rad), the gyro step's Q3.29 range; in use |z|
///   is e·|θ|, a few hundredths of a radian. The step itself is the gyro step's (its
///   |h|² ≤ 2⁻⁹ path without renormalisation, else `fixedFusionLargeGyroStep`, which
///   renormalises), so the attitude stays unit to the gyro step's few LSB until the next
///   decimated step renormalises it.
/// Out of line: only while a sensitivity is applied.
@usableFromInline @inline(never)
func fixedFusionSensitivityCorrection(state s: inout FixedFusionState, factor e: WideVector3, rate: WideVector3, span: Int64) {
    @inline(__always) func turned(_ r: Int64) -> Int64 {
        clamped(roundingShiftRight(roundingShiftRight(r, by: 17) &* span, by: 30), 1 << 25)
    }
    let theta = (x: turned(rate.x), y: turned(rate.y), z: turned(rate.z))
    let epsilon = (
        x: roundingShiftRight(e.x &* theta.x, by: 24), y: roundingShiftRight(e.y &* theta.y, by: 24),
        z: roundingShiftRight(e.z &* theta.z, by: 24))
    let cross = (
        x: roundingShiftRight(theta.y &* epsilon.z &- theta.z &* epsilon.y, by: 24),
        y: roundingShiftRight(theta.z &* epsilon.x &- theta.x &* epsilon.z, by: 24),
        z: roundingShiftRight(theta.x &* epsilon.y &- theta.y &* epsilon.x, by: 24))
    let z = (
        x: Int64(saturatedInt32(cross.x &- epsilon.x)), y: Int64(saturatedInt32(cross.y &- epsilon.y)),
        z: Int64(saturatedInt32(cross.z &- epsilon.z)))
    let squaredHalfAngle = FixedQuaternion.squaredHalfAngleQ30(z.x, z.y, z.z)
    if squaredHalfAngle <= UInt64(FixedQuaternion.normalisedStepLimit) {
        let delta = FixedQuaternion.integrationStepRaw(z.x, z.y, z.z, squaredHalfAngle: Int64(squaredHalfAngle))
        s.gyroAttitude = FixedQuaternion.unitProduct(s.gyroAttitude, w: delta.w, x: delta.x, y: delta.y, z: delta.z)
    } else {
        s.gyroAttitude = fixedFusionLargeGyroStep(s.gyroAttitude, z.x, z.y, z.z)
    }
}

/// The magnetometer step's part, after the field test's `update` (`span`: the span
/// it returned, `field` the field in the 6D frame, `turning` the step's, `duration` its magDt,
/// Q30 s): called when there is a span or a pending turn to learn from at a turning sample.
/// A turn judged "fixed to the earth" is held while the device stays quiet, its sums growing
/// by the quiet spans, and learnt from once quiet `gyroSensitivitySettle`, or turning again, or
/// at the next verdict; a turn judged "turns with the device" teaches nothing.
@usableFromInline @inline(never)
func fixedFusionLearnSensitivity(
    state s: inout FixedFusionState, span: FixedDeviceFixedFieldTest.Span?, field: FixedVector3<Q16>, turning: Bool,
    duration: Int64, coefficients c: FixedFusionCoefficients
) {
    if let span {
        if span.verdict != 0 {
            s.sensitivity.learnPending(field: field, coefficients: c)
            // Only once a rest has measured the bias (the reference's `learnSensitivity` says why).
            if span.verdict > 0 && s.biasMeasured { s.sensitivity.hold(span) }
        } else if s.sensitivity.hasPending {
            s.sensitivity.addQuiet(span, duration: duration)
        }
        if s.sensitivity.hasPending && s.sensitivity.pendingQuiet >= c.sensitivitySettleDuration {
            s.sensitivity.learnPending(field: field, coefficients: c)
        }
    }
    if turning { s.sensitivity.learnPending(field: field, coefficients: c) }
}
