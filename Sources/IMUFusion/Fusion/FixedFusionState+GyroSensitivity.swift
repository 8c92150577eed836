// Issue 28: the gyro's sensitivity error learnt from the turns the device-fixed field test
// shows to be the earth's (`FixedGyroSensitivityEstimator`), on while
// `FixedFusionCoefficients.learnsGyroSensitivity`. The reference's
// `FusionState+GyroSensitivity` in integers: q6 integrates the rate as read; the decimated
// step sums the turn per device axis and corrects the heading about the vertical by the
// applied part; the magnetometer step holds and learns the judged turns.

/// The decimated step's part: `rate` the span's mean rate less the bias before this step
/// (Q40 rad/s, |components| ≤ 68 rad/s), `rows` R(q6) (unit rows, Q30), `span` Q30 s (< 2^31).
/// The turn per device axis h_i = span·up_i·rate_i and about the 6D frame's horizontal axes
/// (rows 0 and 1 · rate · span), each the field test's `addTurn` arithmetic: the rate as Q24
/// (< 2^30.1), products Q54 (< 2^60.9 for a row's dot product) to Q24, times span (< 2^61.9)
/// to Q30 rad (< 2^37.1). Then the heading turns by −Σ e_i·h_i about the vertical: what the
/// 6D frame turned too far with the rate read 1 + applied times too large (nothing at all
/// while nothing is applied, so the output is then the estimator's off bit for bit).
@usableFromInline @inline(never)
func fixedFusionSensitivityTurn(state s: inout FixedFusionState, rate: WideVector3, rows: FixedMatrix3, span: Int64) {
    let (rx, ry, rz) = (rate.x &>> 16, rate.y &>> 16, rate.z &>> 16)
    @inline(__always) func turn(_ along: Int64) -> Int64 { ((along &>> 30) &* span) &>> 24 }
    @inline(__always) func dot(_ row: FixedVector3<Q30>) -> Int64 {
        Int64(row.x.raw) &* rx &+ Int64(row.y.raw) &* ry &+ Int64(row.z.raw) &* rz
    }
    let up = rows.row2
    let perAxis = WideVector3(
        x: turn(Int64(up.x.raw) &* rx), y: turn(Int64(up.y.raw) &* ry), z: turn(Int64(up.z.raw) &* rz))
    s.heading.deviceFixed.addTurn(perAxis: perAxis, horizontalX: turn(dot(rows.row0)), horizontalY: turn(dot(rows.row1)))
    let e = s.sensitivity.headingFactor
    guard e.x != 0 || e.y != 0 || e.z != 0 else { return }
    // Σ e_i·h_i (Q30 rad): |e_i| ≤ 2^30 (a factor), |h_i| < 2^37.1: < 2^38.7. Half of it, the
    // rotation's quaternion part, clamped at ±1 (a turn of 90°: never reached by a span's turn).
    let angle = product(e.x, perAxis.x) &+ product(e.y, perAxis.y) &+ product(e.z, perAxis.z)
    s.heading.turnAboutVertical(halfAngle: clamped(0 &- roundingShiftRight(angle, by: 1), 1 << 30))
}

/// The magnetometer step's part (with the field test, instead of its `update`): `field` the
/// field in the 6D frame, `turning` the step's, `duration` its magDt (Q30 s).
/// A turn judged "fixed to the earth" is held while the device stays quiet, its sums growing
/// by the quiet spans, and learnt from once quiet `gyroSensitivitySettle`, or turning again, or
/// at the next verdict; a turn judged "turns with the device" teaches nothing.
@usableFromInline @inline(never)
func fixedFusionLearnSensitivity(
    state s: inout FixedFusionState, field: FixedVector3<Q16>, turning: Bool, duration: Int64,
    coefficients c: FixedFusionCoefficients
) {
    let span = s.heading.deviceFixed.updateReturningSpan(
        field: field, quiet: !turning, maxRatio: Int64(c.parameters.deviceFixedFieldMaxRatio.raw),
        minTurn: Int64(c.parameters.deviceFixedFieldMinTurn.raw))
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
