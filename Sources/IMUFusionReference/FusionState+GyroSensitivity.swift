import IMUGeometry

// Issue 28, sixth pass: the gyro's sensitivity error learnt from the turns the device-fixed
// field test shows to be the earth's (`GyroSensitivityEstimator`), on while
// `FusionParameters.gyroSensitivityPrior` > 0 and the test is on.
extension FusionState {
    /// The bias-free rate with ŝ taken out: every axis divided by 1 + ŝ, or only the part about
    /// the vertical (`gyroSensitivityVerticalOnly`: what the earth turns measure; the tilt keeps
    /// the rate as read).
    @inline(__always)
    func sensitivityCorrected(_ rate: Vector3, parameters p: FusionParameters) -> Vector3 {
        let f = sensitivity.rateFactor
        guard p.gyroSensitivityVerticalOnly else { return componentwise(rate, f) }
        let up = attitude6D.rotationMatrix.rows.2  // the vertical in device axes
        let excess = up.dot(componentwise(rate, Vector3(f.x - 1, f.y - 1, f.z - 1)))
        return rate + excess * up
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
        // field's own dip, here; the test has made sure |m_h| > |m_z|/10).
        let tanDip = abs(m.z) / (m.x * m.x + m.y * m.y).squareRoot()
        let tilt = tanDip * p.gyroSensitivityPrior * turn.turnedHorizontal.dot(turn.turnedHorizontal).squareRoot()
        let noise = p.gyroSensitivityDirectionNoise * p.gyroSensitivityDirectionNoise + tilt * tilt
        let change = sensitivity.update(
            regressor: turn.turnedPerAxis, directionChange: turn.directionChange, noiseVariance: noise,
            limit: p.gyroSensitivityLimit, significance: p.gyroSensitivitySignificance)
        if p.gyroSensitivityTakeBack > 0 && heading.isInitialised {
            // The 6D frame turned h · Δŝ too far over this turn (by the new estimate; Δ of the applied part): the heading
            // turns back by that much about the vertical.
            let error = p.gyroSensitivityTakeBack * turn.turnedPerAxis.dot(change)
            heading.heading = normalize(Quaternion(axis: Vector3(0, 0, 1), angle: -error) * heading.heading)
        }
    }
}
