// Issue 28: the gyro's sensitivity error learnt from the turns the device-fixed field test
// shows to be the earth's (`FixedGyroSensitivityEstimator`), on while
// `FixedFusionCoefficients.learnsGyroSensitivity`. The reference's
// `FusionState+GyroSensitivity` in integers: q6 integrates the rate as read; the decimated
// step sums the turn per device axis and corrects the heading about the vertical by the
// applied part; the magnetometer step holds and learns the judged turns.

/// The decimated step's part: `rate` the span's mean rate less the bias before this step
/// (Q40 rad/s, |components| ≤ 68 rad/s), `rows` R(q6) (unit rows, Q30), `span` Q30 s (≤ 8 ·
/// 1.02 s after a run of 1 s gaps: < 2^33.1). The turn per device axis h_i = up_i·(rate_i·span)
/// and about the 6D frame's horizontal axes (rows 0 and 1 · rate·span): rate·span per axis
/// first, the rate as Q22 (< 2^28.1) times span (< 2^61.2) to Q20 rad (< 2^29.1, |vector| <
/// 2^29.9; 10⁻⁶ rad, far below the 1° a turn's direction is read to), then the products with the
/// rows (Q30: < 2^59.1 each, a row's dot product < 2^59.9 by |row| = 1) to Q30 rad (< 2^39.1).
/// Then the heading turns by −Σ e_i·h_i about the vertical: what the 6D frame turned too far with
/// the rate read 1 + applied times too large (nothing at all while nothing is applied, so the
/// output is then the estimator's off bit for bit). Inlined into the decimated parts (the call
/// and the rows passed through memory cost ~15 % of it).
@inline(__always)
func fixedFusionSensitivityTurn(state s: inout FixedFusionState, rate: WideVector3, rows: FixedMatrix3, span: Int64) {
    @inline(__always) func turned(_ r: Int64) -> Int64 { ((r &>> 18) &* span) &>> 32 }
    let (tx, ty, tz) = (turned(rate.x), turned(rate.y), turned(rate.z))
    @inline(__always) func dot(_ row: FixedVector3<Q30>) -> Int64 {
        (Int64(row.x.raw) &* tx &+ Int64(row.y.raw) &* ty &+ Int64(row.z.raw) &* tz) &>> 20
    }
    let up = rows.row2
    let perAxis = WideVector3(
        x: (Int64(up.x.raw) &* tx) &>> 20, y: (Int64(up.y.raw) &* ty) &>> 20, z: (Int64(up.z.raw) &* tz) &>> 20)
    s.heading.deviceFixed.addTurn(perAxis: perAxis, horizontalX: dot(rows.row0), horizontalY: dot(rows.row1))
    let e = s.sensitivity.headingFactor
    if e.x != 0 || e.y != 0 || e.z != 0 { fixedFusionSensitivityHeading(state: &s, factor: e, turn: perAxis) }
}

/// The heading's turn −Σ e_i·h_i (Q30 rad): |e_i| ≤ 2^30 (a factor), |h_i| < 2^39.1: < 2^40.7.
/// Half of it, the rotation's quaternion part, clamped at ±1 (a turn of 90°: never reached by a
/// span's turn). Out of line: only while a sensitivity is applied.
@usableFromInline @inline(never)
func fixedFusionSensitivityHeading(state s: inout FixedFusionState, factor e: WideVector3, turn h: WideVector3) {
    let angle = product(e.x, h.x) &+ product(e.y, h.y) &+ product(e.z, h.z)
    s.heading.turnAboutVertical(halfAngle: clamped(0 &- roundingShiftRight(angle, by: 1), 1 << 30))
}

/// The magnetometer step's part, after the field test's `updateReturningSpan` (`span`: the span
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
            if span.verdict > 0 { s.sensitivity.hold(span) }
        } else if s.sensitivity.hasPending {
            s.sensitivity.addQuiet(span, duration: duration)
        }
        if s.sensitivity.hasPending && s.sensitivity.pendingQuiet >= c.sensitivitySettleDuration {
            s.sensitivity.learnPending(field: field, coefficients: c)
        }
    }
    if turning { s.sensitivity.learnPending(field: field, coefficients: c) }
}

extension FixedHeadingCorrection {
    /// Turns the heading about the vertical by the quaternion (1, 0, 0, h), renormalised: the
    /// magnetometer step's turn (`update`), for a half-angle h (Q30, |h| ≤ 1: the product's
    /// norm √(1 + h²) ≤ 1.42 stays inside Q2.30).
    @usableFromInline
    mutating func turnAboutVertical(halfAngle h: Int64) {
        let turn = FixedQuaternion(w: .one, x: .zero, y: .zero, z: Q30(raw: Int32(truncatingIfNeeded: h)))
        heading = (turn * heading).renormalized()
    }
}
