import IMUGeometry

/// The gyro's sensitivity error per device axis, learnt from the turns the device-fixed field
/// test shows to be in the earth's field (issue 28, sixth pass; on while
/// `FusionParameters.gyroSensitivityPrior` > 0).
///
/// A gyro reading (1 + s_i)·ω_i on axis i turns the 6D frame about the vertical by
/// Σ_i s_i·∫ω_i·u_i dt too much (u: the vertical in device axes). The earth's field does not
/// turn, so its horizontal direction in the 6D frame moves by that error, less what is taken
/// out: Δdirection ≈ h · (s − applied) with the regressor h_i = ∫ω_i·u_i dt of the rate as
/// read. Each judged earth turn is one such measurement of s; a Kalman update with the
/// datasheets' prior learns it. The correction is every axis's: the gyro frame turns back by
/// e ⊙ the decimated step's turn, with the span's commutator term
/// (`FusionState.sensitivityCorrection`; `correctionFactor` e). Pure arithmetic; the caller
/// decides when a turn counts (only "fixed to the earth": a field that
/// turns with the device says nothing about s).
public struct GyroSensitivityEstimator: Sendable, Equatable {
    /// ŝ per device axis (a fraction: the gyro reads 1 + ŝ times the rate).
    public private(set) var estimate = Vector3.zero
    /// The part of ŝ taken out of the gyro frame: ŝ itself, or with a significance gate only the
    /// axes where ŝ differs from 0 by more than the gate's standard deviations (0 elsewhere).
    public private(set) var applied = Vector3.zero
    /// e_i = applied_i / (1 + applied_i): the share of the rate as read on axis i that is the
    /// error (a rate divided by 1 + applied loses exactly this share). The gyro frame turns back
    /// by e ⊙ θ over each decimated step's turn θ; 0 below the gate, where it gets exactly
    /// nothing. Computed when the estimate changes (rare), not per sample.
    public private(set) var correctionFactor = Vector3.zero
    /// The covariance of ŝ (symmetric 3 × 3: xx, xy, xz, yy, yz, zz).
    public private(set) var covariance: (xx: Double, xy: Double, xz: Double, yy: Double, yz: Double, zz: Double)
    /// Earth turns learnt from, for diagnostics.
    public private(set) var updates = 0
    /// Turns whose direction change was too far from the prediction to be the gyro's.
    public private(set) var rejected = 0

    /// A turn judged "fixed to the earth" and the quiet spans after it, not yet learnt from.
    public struct PendingTurn: Sendable, Equatable {
        public var directionChange: Double
        public var turnedPerAxis: Vector3
        public var turnedHorizontal: Vector3
        /// Time quiet since the verdict (s).
        public var quiet: Double = 0

        public init(_ span: DeviceFixedFieldTest.Span) {
            directionChange = span.directionChange
            turnedPerAxis = span.turnedPerAxis
            turnedHorizontal = span.turnedHorizontal
        }

        mutating func add(_ span: DeviceFixedFieldTest.Span, quiet dt: Double) {
            directionChange += span.directionChange
            turnedPerAxis += span.turnedPerAxis
            turnedHorizontal += span.turnedHorizontal
            quiet += dt
        }
    }
    public var pending: PendingTurn?

    public init(prior: Double = 0) {
        let v = prior * prior
        covariance = (v, 0, 0, v, 0, v)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.estimate == b.estimate && a.applied == b.applied && a.correctionFactor == b.correctionFactor && a.updates == b.updates && a.rejected == b.rejected && a.pending == b.pending
            && a.covariance == b.covariance
    }

    /// One turn: the regressor h (rad per axis, of the rate as read), the field's direction change
    /// over it (rad, counter-clockwise about up), the change's noise variance (rad²), ŝ's bound
    /// per axis and the significance gate k (0: ŝ applied as it is; k > 0: ŝ_i applied only where
    /// |ŝ_i| > k·σ_i, its posterior's own standard deviation). A change beyond three standard
    /// deviations of its prediction is not the gyro's (Gaussian: 0.3 % of honest turns): a field
    /// that varies along the path, which the device-fixed test's 9 % lets through. It teaches
    /// nothing.
    public mutating func update(
        regressor h: Vector3, directionChange y: Double, noiseVariance: Double, limit: Double, significance k: Double = 0
    ) {
        let c = covariance
        // P·h and hᵀ·P·h + r.
        let ph = Vector3(
            c.xx * h.x + c.xy * h.y + c.xz * h.z,
            c.xy * h.x + c.yy * h.y + c.yz * h.z,
            c.xz * h.x + c.yz * h.y + c.zz * h.z)
        let innovationVariance = h.dot(ph) + noiseVariance
        guard innovationVariance > 0, innovationVariance.isFinite, y.isFinite else { return }
        // Nor can a change the datasheets' bound on every axis could not make, beside the noise.
        let most = limit * (abs(h.x) + abs(h.y) + abs(h.z)) + 3 * noiseVariance.squareRoot()
        // The 6D frame turned by Σ h_i/(1 + a_i) (a = applied: taken out of the gyro frame) where
        // the earth turned Σ h_i/(1 + s_i), so Δdirection = Σ h_i·(s_i − a_i)/((1 + a_i)(1 + s_i))
        // = h · (ŝ − a) to first order in the error (the divisors are within 3 % of 1; h of the
        // rate as read, as the estimate has always been learnt), and exactly 0 at ŝ = a = s: the
        // estimate settles where the correction is exact.
        let innovation = y - h.dot(estimate - applied)
        guard innovation * innovation <= 9 * innovationVariance, abs(y) <= most else {
            rejected += 1
            return
        }
        let gain = ph / innovationVariance
        let new = estimate + innovation * gain
        estimate = Vector3(
            min(max(new.x, -limit), limit), min(max(new.y, -limit), limit), min(max(new.z, -limit), limit))
        // P ← P − (P h)(P h)ᵀ / (hᵀ P h + r): the Joseph form is not needed, the update is scalar.
        let r = 1 / innovationVariance
        covariance = (
            c.xx - ph.x * ph.x * r, c.xy - ph.x * ph.y * r, c.xz - ph.x * ph.z * r,
            c.yy - ph.y * ph.y * r, c.yz - ph.y * ph.z * r, c.zz - ph.z * ph.z * r)
        updates += 1
        let c2 = covariance
        applied = k > 0
            ? Vector3(
                Self.significant(estimate.x, variance: c2.xx, k: k), Self.significant(estimate.y, variance: c2.yy, k: k),
                Self.significant(estimate.z, variance: c2.zz, k: k))
            : estimate
        correctionFactor = Vector3(
            applied.x / (1 + applied.x), applied.y / (1 + applied.y), applied.z / (1 + applied.z))
    }

    /// ŝ_i if it is k of its standard deviations from 0 (k = 2: the two-sided 5 % test), else 0.
    /// A hard gate rather than a shrinkage: below it the output is exactly the estimator's off.
    static func significant(_ s: Double, variance: Double, k: Double) -> Double {
        s * s > k * k * max(variance, 0) ? s : 0
    }
}
