import IMUGeometry

// Issue 28, sixth pass: the gyro's sensitivity error learnt from the turns the device-fixed
// field test shows to be the earth's (`GyroSensitivityEstimator`), on while
// `FusionParameters.gyroSensitivityPrior` > 0 and the test is on.
extension FusionState {
    /// One decimated step's turn per device axis, h_i = span · up_i · (mean rate − bias)_i of the
    /// rate as read: into the field test's sums (the estimator's regressor) and, with ŝ applied,
    /// taken out of the heading. Dividing the rate by 1 + ŝ per sample would take e_i = ŝ_i/(1 + ŝ_i)
    /// of it; along the vertical u that is q ⊗ exp(c·u) = exp(c·e_z) ⊗ q, a turn about the earth's
    /// vertical, which commutes with the body-frame integration, so the span's sum turns the
    /// heading (itself a turn about the vertical) on this step alone. The tilt keeps the rate as
    /// read. Below the significance gate e = 0 and the heading is left exactly as it is.
    @inline(__always)
    mutating func addSensitivityTurn(perAxis h: Vector3, horizontal: Vector3) {
        heading.deviceFixed.addTurn(perAxis: h, horizontal: horizontal)
        let error = sensitivity.headingFactor.dot(h)
        if error != 0 {
            heading.heading = normalize(Quaternion(axis: Vector3(0, 0, 1), angle: -error) * heading.heading)
        }
    }

    /// One magnetometer sample's part: `span` is what the field test returned (the sums since
    /// the last quiet moment, on quiet samples), `field6D` the field in the 6D frame.
    ///
    /// A turn judged "fixed to the earth" is held while the device stays quiet, its sums growing
    /// by the quiet spans (the inclination settles there: a tilt left by the turn moves the
    /// field's direction back as it is corrected), and learnt from once the device has been quiet
    /// `gyroSensitivitySettleDuration`, or turns again, or the next turn is judged. A turn judged
    /// "turns with the device" teaches nothing.
    mutating func learnSensitivity(
        span: DeviceFixedFieldTest.Span?, field6D: Vector3, turning: Bool, dt: Double, parameters p: FusionParameters
    ) {
        if let span {
            if let verdict = span.verdict {
                learnPendingTurn(field6D: field6D, parameters: p)
                if verdict == .fixedToEarth { sensitivity.pending = .init(span) }
            } else if sensitivity.pending != nil {
                sensitivity.pending?.add(span, quiet: dt)
            }
            if let pending = sensitivity.pending, pending.quiet >= p.gyroSensitivitySettleDuration {
                learnPendingTurn(field6D: field6D, parameters: p)
            }
        }
        if turning { learnPendingTurn(field6D: field6D, parameters: p) }
    }

    private mutating func learnPendingTurn(field6D m: Vector3, parameters p: FusionParameters) {
        guard let turn = sensitivity.pending else { return }
        sensitivity.pending = nil
        // The noise: the direction read at both ends (`gyroSensitivityDirectionNoise`), and the
        // tilt the sensitivity error (the prior's σ) may have left from the turn about the
        // horizontal axes, which moves the field's direction by tan(dip) per radian of tilt (the
        // field's own dip, here; the test has made sure |m_h| > |m_z|/10): its square,
        // m_z²/|m_h|² · prior² · |turned horizontally|², needs no square root.
        let prior2 = p.gyroSensitivityPrior * p.gyroSensitivityPrior
        let tilt2 = m.z * m.z / (m.x * m.x + m.y * m.y) * prior2 * turn.turnedHorizontal.dot(turn.turnedHorizontal)
        let noise = p.gyroSensitivityDirectionNoise * p.gyroSensitivityDirectionNoise + tilt2
        sensitivity.update(
            regressor: turn.turnedPerAxis, directionChange: turn.directionChange, noiseVariance: noise,
            limit: p.gyroSensitivityLimit, significance: p.gyroSensitivitySignificance)
    }
}
