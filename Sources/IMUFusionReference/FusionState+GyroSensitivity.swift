import IMUGeometry

// Issue 28, sixth pass: the gyro's sensitivity error learnt from the turns the device-fixed
// field test shows to be the earth's (`GyroSensitivityEstimator`), on while
// `FusionParameters.gyroSensitivityPrior` > 0 and the test is on.
extension FusionState {
    /// One decimated step's turn per device axis, h_i = span · up_i · (mean rate − bias)_i of the
    /// rate as read, into the field test's sums (the estimator's regressor), and with ŝ applied
    /// the step's share of it taken out of every axis: the gyro frame turns on the right by the
    /// span's correction (`sensitivityCorrection`), so the tilt loses the error a turn about a
    /// horizontal axis leaves as well as the heading its own. Returns whether the gyro frame
    /// moved: below the significance gate e = 0 and nothing moves at all.
    @inline(__always)
    mutating func addSensitivityTurn(perAxis h: Vector3, horizontal: Vector3, turned theta: Vector3) -> Bool {
        heading.deviceFixed.addTurn(perAxis: h, horizontal: horizontal)
        guard let z = Self.sensitivityCorrection(turned: theta, factor: sensitivity.correctionFactor) else { return false }
        gyroAttitude = integrateRotation(gyroAttitude, rate: z, dt: 1)
        return true
    }

    /// The rotation vector (device axes, rad) that takes the span's sensitivity error out of the
    /// gyro frame on its last sample, or nil when there is none (e = 0: below the gate).
    ///
    /// Dividing the rate by 1 + ŝ per sample takes c = e ⊙ ω out of each sample's rate
    /// (e_i = ŝ_i/(1 + ŝ_i)). Over a span of T (16 samples, 56 ms at BROAD's 285.7 Hz) the
    /// integration is Π exp((ω_k − c_k)·dt); taking Σ c_k·dt = ε = e ⊙ θ (θ = (mean − bias)·T, the
    /// span's turn) out at its end instead differs by the commutator: for a rate whose axis holds
    /// over the span, exp(θ)·exp(z) = exp(θ − ε) needs z = −ε + ½ θ × ε + O(|θ|²|ε|) (BCH). The
    /// ½ θ × ε term is not small where it matters: it is up to ½|θ| of |ε|, 0.39 in synthetic
    /// A's 800°/s peaks (θ = 45° per span) and 0.71 in BROAD's fastest (trial 07, 1454°/s;
    /// 1074°/s at its 99th percentile), a tilt the correction would leave, of up to
    /// ½|θ|²·(e_max − e_min)/2 per span (0.4° at A's peaks for 3 % against −1.6 %). With it the
    /// rest is of third order, |θ|²/12 of ε: 5 % at A's peaks, 9–17 % in trial 07's fastest
    /// spans, under 5 % in the other eleven trials (99 % of their samples below 750°/s), and it
    /// tilts the span's axis rather than adding up along it. The axis of a hand's rate turns
    /// little over 56 ms (A's turns hold theirs); its turn within the span adds terms of the same
    /// kind in the change. `theAllAxesCorrectionIsThePerSampleDivision` measures it: within |θ|²/12
    /// of the error uncorrected. One cross product per decimated step, nothing per sample.
    @inline(__always)
    static func sensitivityCorrection(turned theta: Vector3, factor e: Vector3) -> Vector3? {
        guard e != .zero else { return nil }
        let epsilon = componentwise(e, theta)
        return -epsilon + 0.5 * theta.cross(epsilon)
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
                // Only once a rest has measured the bias: before, the in-motion estimate's error
                // along the vertical (which 6D cannot see) moves the direction like a sensitivity
                // error, and taken out of every axis the ŝ it teaches tilts the frame
                // (`NeverStillConvergenceTests`: 1.7 % on x from a 20 °/s offset, 1.8° of tilt).
                if verdict == .fixedToEarth && biasMeasured { sensitivity.pending = .init(span) }
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
