/// The gyro's sensitivity error per device axis learnt from earth turns: the reference's
/// `GyroSensitivityEstimator` (its Kalman update, gates, clamp and significance gate) in
/// integers, with the judged turn held while the device stays quiet (`pending…`).
/// It runs once per judged turn (a few a minute at most), so it is written for precision and
/// for ranges that hold for any input, not for speed: no Double, no 128-bit type — products
/// through `wideProduct` (a Q2.30 factor times a value ≤ 2^60) and `q60Product`, one
/// reciprocal square root, one 64-bit division per applied axis.
///
/// Formats and ranges:
/// - ŝ and its applied part: Q40 fractions, |·| ≤ limit ≤ ½ (2^39).
/// - `correctionFactor` e_i = applied_i / (1 + applied_i): Q30, in [−1, ⅓] (|·| ≤ 2^30).
/// - P (symmetric 3 × 3): Q60 rad⁻²·rad² = fractions², 0 ≤ P_ii ≤ prior² ≤ ¼ (2^58) and
///   |P_ij| ≤ √(P_ii·P_jj); the prior 1 % is 10⁻⁴ (2^46.7), shrinking to 10⁻⁶ … 10⁻⁵ (2^40 …
///   2^43.3), 40+ significant bits.
/// - The pending turn: Q30 rad sums clamped at ±2^50 (the field test's), quiet time Q30 s.
public struct FixedGyroSensitivityEstimator: Sendable, Equatable {
    public var estimate = WideVector3.zero
    public var applied = WideVector3.zero
    /// e_i per axis (Q30), precomputed when `applied` changes: the gyro frame turns back by
    /// e ⊙ θ per decimated span θ (a rate divided by 1 + applied is the rate less e times it;
    /// `fixedFusionSensitivityCorrection`).
    public var correctionFactor = WideVector3.zero
    public var pxx: Int64, pxy: Int64 = 0, pxz: Int64 = 0, pyy: Int64, pyz: Int64 = 0, pzz: Int64
    /// Earth turns learnt from, and turns refused (diagnostics; saturating).
    public var updates: Int32 = 0
    public var rejected: Int32 = 0

    /// A turn judged "fixed to the earth" and the quiet spans after it, not yet learnt from.
    public var hasPending = false
    public var pendingDirectionChange: Int64 = 0
    public var pendingTurnedPerAxis = WideVector3.zero
    public var pendingTurnedHorizontalX: Int64 = 0
    public var pendingTurnedHorizontalY: Int64 = 0
    public var pendingQuiet: Int64 = 0

    /// `priorVariance` Q60 (`FixedFusionCoefficients.sensitivityPriorVariance`).
    @inlinable
    public init(priorVariance: Int64) {
        pxx = priorVariance
        pyy = priorVariance
        pzz = priorVariance
    }

    /// The sums' bound (Q30 rad), the field test's.
    @usableFromInline static let limit: Int64 = 1 << 50

    /// A judged earth turn starts the pending turn (the reference's `PendingTurn.init`).
    mutating func hold(_ span: FixedDeviceFixedFieldTest.Span) {
        hasPending = true
        pendingDirectionChange = span.directionChange
        pendingTurnedPerAxis = span.turnedPerAxis
        pendingTurnedHorizontalX = span.turnedHorizontalX
        pendingTurnedHorizontalY = span.turnedHorizontalY
        pendingQuiet = 0
    }

    /// A quiet span after it (`PendingTurn.add`): sums clamped, the time saturating.
    mutating func addQuiet(_ span: FixedDeviceFixedFieldTest.Span, duration: Int64) {
        pendingDirectionChange = turnSum(pendingDirectionChange, span.directionChange)
        pendingTurnedPerAxis = WideVector3(
            x: turnSum(pendingTurnedPerAxis.x, span.turnedPerAxis.x), y: turnSum(pendingTurnedPerAxis.y, span.turnedPerAxis.y),
            z: turnSum(pendingTurnedPerAxis.z, span.turnedPerAxis.z))
        pendingTurnedHorizontalX = turnSum(pendingTurnedHorizontalX, span.turnedHorizontalX)
        pendingTurnedHorizontalY = turnSum(pendingTurnedHorizontalY, span.turnedHorizontalY)
        pendingQuiet = advanced(pendingQuiet, by: duration)
    }

    /// Learns from the pending turn, if any, and drops it (the reference's `learnPendingTurn`):
    /// `field` the field in the 6D frame now (Q16 µT, a rotated clamped sample, |·| < 2^30.2
    /// raw), whose dip sets the tilt's share of the noise.
    @usableFromInline @inline(never)
    mutating func learnPending(field m: FixedVector3<Q16>, coefficients c: FixedFusionCoefficients) {
        guard hasPending else { return }
        hasPending = false
        let h = pendingTurnedPerAxis
        // h = g·2^n with |g_i| ≤ 2^30 (Q30, ≤ 1): every product below takes g as a Q2.30 factor.
        // Kalman's update is the same in these units with y, r and S divided by 2^n, 2^2n, 2^2n
        // (gain Ph/S = 2^-n·Pg/S', ŝ += Pg·ν'/S', P −= Pg·Pgᵀ/S'). n ≤ 21 (|h_i| ≤ 2^50).
        let largest = Swift.max(h.x.magnitude, h.y.magnitude, h.z.magnitude)
        let n = Swift.max(64 &- largest.leadingZeroBitCount &- 30, 0)
        let g = WideVector3(
            x: roundingShiftRight(h.x, byAtLeastZero: n), y: roundingShiftRight(h.y, byAtLeastZero: n),
            z: roundingShiftRight(h.z, byAtLeastZero: n))
        let r = Self.scaledNoiseVariance(
            field: m, horizontalX: pendingTurnedHorizontalX, horizontalY: pendingTurnedHorizontalY, n: n, coefficients: c)
        // y' = y / 2^n as Q40 (|y| ≤ 2^50 Q30: y·2^10 ≤ 2^60 before the shift), clamped at 16 rad:
        // beyond, the second gate below refuses it anyway (limit·Σ|g| ≤ 1.5, 3σ ≤ 6 with r' ≤ 4).
        let yQ40 = n <= 10
            ? pendingDirectionChange &<< (10 &- n) : roundingShiftRight(pendingDirectionChange, by: n &- 10)
        update(regressor: g, directionChange: clamped(yQ40, 1 << 44), noiseVariance: r, coefficients: c)
    }

    /// The noise variance of the turn's direction change divided by 2^2n, Q60 rad², saturating
    /// at 4 (2^62): the direction noise² plus (tan dip · prior · |turned horizontally|)² (the
    /// tilt a sensitivity error of the prior's size may have left), tan² dip = m_z² / |m_h|².
    static func scaledNoiseVariance(
        field m: FixedVector3<Q16>, horizontalX: Int64, horizontalY: Int64, n: Int, coefficients c: FixedFusionCoefficients
    ) -> Int64 {
        let most: Int64 = 1 << 62
        let direction = c.sensitivityNoiseVariance &>> (2 &* n)  // < 2^62
        // tan² dip as Q30, at most 128 (2^37): both squares (< 2^61.4) shifted so the larger
        // fits 31 bits, the numerator then ·2^30 (< 2^61); |m_h| = 0 saturates.
        let (x, y, z) = (Int64(m.x.raw), Int64(m.y.raw), Int64(m.z.raw))
        let mh2 = x &* x &+ y &* y
        let mz2 = z &* z
        let shift = Swift.max(64 &- UInt64(Swift.max(mh2, mz2)).leadingZeroBitCount &- 31, 0)
        let (horizontal, vertical) = (mh2 &>> shift, mz2 &>> shift)
        let tanSquared = horizontal > 0 ? Swift.min((vertical &<< 30) / horizontal, 1 << 37) : 1 << 37
        // |t_h|² as Q60 of t_h / 2^s, components ≤ 2^29 (Q30): ≤ 2^59.
        let largest = Swift.max(horizontalX.magnitude, horizontalY.magnitude)
        let s = Swift.max(64 &- largest.leadingZeroBitCount &- 29, 0)
        let (tx, ty) = (roundingShiftRight(horizontalX, byAtLeastZero: s), roundingShiftRight(horizontalY, byAtLeastZero: s))
        let turnSquared = tx &* tx &+ ty &* ty
        // prior² (≤ 2^58) · |t'|² (≤ 2^59): Q60 ≤ 2^57; · tan² as Q53 (≤ 2^60): Q53 ≤ 2^57.
        let tilt = q60Product(q60Product(c.sensitivityPriorVariance, turnSquared), tanSquared &<< 23)
        // Back to Q60 and the true scale: · 2^(7 + 2s − 2n), saturating at 2^62.
        let up = 7 &+ 2 &* s &- 2 &* n
        let tiltQ60: Int64
        if tilt == 0 {
            tiltQ60 = 0
        } else if up >= 0 {
            tiltQ60 = up >= tilt.leadingZeroBitCount &- 1 ? most : Swift.min(tilt &<< up, most)
        } else {
            tiltQ60 = up <= -63 ? 0 : roundingShiftRight(tilt, by: 0 &- up)
        }
        return Swift.min(direction &+ tiltQ60, most)
    }

    /// One turn in the scaled units of `learnPending`: g (Q30, |g_i| ≤ 2^30), y' (Q40, ≤ 16 rad),
    /// r' (Q60, ≤ 2^62). The reference's `update`: the two gates (|y| ≤ limit·Σ|h| + 3σ_r; the
    /// innovation within 3σ of its prediction), the Kalman step in the whitened form, the
    /// clamp at ±limit, the significance gate.
    mutating func update(regressor g: WideVector3, directionChange y: Int64, noiseVariance r: Int64, coefficients c: FixedFusionCoefficients) {
        // P·g (Q60): |·| ≤ ‖P‖·|g| ≤ ¾·√3 < 2^60.4.
        let pg = WideVector3(
            x: product(g.x, pxx) &+ product(g.y, pxy) &+ product(g.z, pxz),
            y: product(g.x, pxy) &+ product(g.y, pyy) &+ product(g.z, pyz),
            z: product(g.x, pxz) &+ product(g.y, pyz) &+ product(g.z, pzz))
        // S' = gᵀPg + r' (Q60): ≤ tr P·|g|² + 4 ≤ 2.25 + 4 < 2^62.7.
        let innovationVariance = product(g.x, pg.x) &+ product(g.y, pg.y) &+ product(g.z, pg.z) &+ r
        guard innovationVariance > 0 else { return }
        // The second gate: |y'| ≤ limit·Σ|g| + 3√r' (Q40: limit·Σ|g| ≤ ½·3 < 2^40.6), as
        // (|y'| − L)² ≤ 9r' where it is above L; beyond 6 rad it fails outright (r' ≤ 4), so the
        // difference as Q28 is < 2^30.6 and its square (Q56) < 2^61.2, 9r' as Q56 ≤ 2^61.2.
        let bound = product(Int64(g.x.magnitude), c.sensitivityLimit)
            &+ product(Int64(g.y.magnitude), c.sensitivityLimit) &+ product(Int64(g.z.magnitude), c.sensitivityLimit)
        let excess = Int64(y.magnitude) &- bound
        if excess > 0 {
            let e = roundingShiftRight(excess, by: 12)
            guard excess <= 6 << 40, e &* e <= 9 &* (r &>> 4) else {
                rejected = Swift.min(rejected &+ 1, .max - 1)
                return
            }
        }
        // The innovation ν' = y' − g·(ŝ − applied) (the prediction: the part of ŝ not taken out of
        // the gyro frame, which the 6D frame's directions still carry; the reference's comment has
        // the algebra): |ŝ_i − applied_i| ≤ 2·limit ≤ 1 (applied is an earlier ŝ, or 0), so
        // |g·(ŝ − applied)| ≤ 3, |y'| ≤ L + 6 ≤ 7.5, |ν'| ≤ 10.5 (Q40 < 2^43.4).
        let unapplied = estimate - applied
        let innovation = y &- (product(g.x, unapplied.x) &+ product(g.y, unapplied.y) &+ product(g.z, unapplied.z))
        // Whitened by 1/√S' = M·2^e/2^32 (M in [2^32, 2^33]; S' floored at 2^-36 rad² (Q60 2^24):
        // e ≤ 18): w = Pg/√S' has |w_i| ≤ √P_ii ≤ ½ (Cauchy–Schwarz: (Pg)_i² ≤ P_ii·gᵀPg), z = ν'/√S'.
        let parts = FixedMath.reciprocalSquareRootParts(
            ofSignificand: UInt64(Swift.max(innovationVariance, 1 << 24)), fractionBits: 60)
        let factor = roundingShiftRight(parts.mantissa, by: 2)  // Q30, ≤ 2^31
        let exponent = parts.exponent
        func whitened(_ v: Int64, bound: Int64) -> Int64 {
            // v·M (≤ 2·|v|), then ·2^e; clamped to ±bound before a left shift (the roundings
            // may carry it a hair past the bound it has in exact arithmetic).
            let scaled = product(factor, v)
            guard exponent >= 0 else { return roundingShiftRight(scaled, by: Swift.min(0 &- exponent, 62)) }
            let limit = bound &>> exponent
            return clamped(scaled, limit) &<< exponent
        }
        // z (Q40): |ν'|·2 ≤ 2^44.4, ·2^18 < 2^62.4. The first gate: |z| ≤ 3.
        let z = whitened(innovation, bound: 1 << 62)
        guard z.magnitude <= 3 << 40 else {
            rejected = Swift.min(rejected &+ 1, .max - 1)
            return
        }
        let w = WideVector3(
            x: whitened(pg.x, bound: 1 << 59), y: whitened(pg.y, bound: 1 << 59), z: whitened(pg.z, bound: 1 << 59))
        // ŝ += w·z: z as Q29 (≤ 3·2^29 < 2^31, a factor) times w (Q60) is Q59, to Q40.
        let zFactor = roundingShiftRight(z, by: 11)
        func step(_ s: Int64, _ wi: Int64) -> Int64 {
            clamped(s &+ roundingShiftRight(product(zFactor, wi), by: 19), c.sensitivityLimit)
        }
        estimate = WideVector3(x: step(estimate.x, w.x), y: step(estimate.y, w.y), z: step(estimate.z, w.z))
        // P −= w·wᵀ (Q60; the diagonal kept ≥ 0 against the roundings).
        pxx = Swift.max(pxx &- q60Product(w.x, w.x), 0)
        pxy &-= q60Product(w.x, w.y)
        pxz &-= q60Product(w.x, w.z)
        pyy = Swift.max(pyy &- q60Product(w.y, w.y), 0)
        pyz &-= q60Product(w.y, w.z)
        pzz = Swift.max(pzz &- q60Product(w.z, w.z), 0)
        updates = Swift.min(updates &+ 1, .max - 1)
        applied = WideVector3(
            x: significant(estimate.x, variance: pxx, c), y: significant(estimate.y, variance: pyy, c),
            z: significant(estimate.z, variance: pzz, c))
        correctionFactor = WideVector3(x: Self.factor(applied.x), y: Self.factor(applied.y), z: Self.factor(applied.z))
    }

    /// ŝ_i where ŝ_i² > k²·P_ii (both sides / 16: ŝ as Q60 ≤ 2^59, its square ≤ 2^58; k²/16
    /// ≤ 1 as Q60), else 0; ŝ_i itself without a gate (k = 0).
    func significant(_ s: Int64, variance: Int64, _ c: FixedFusionCoefficients) -> Int64 {
        guard c.sensitivitySignificanceSquared > 0 else { return s }
        let s60 = s &<< 20
        return q60Product(s60, s60) &>> 4 > q60Product(c.sensitivitySignificanceSquared, variance) ? s : 0
    }

    /// a / (1 + a) as Q30 for a Q40 |a| ≤ ½: a·2^20 (Q60, ≤ 2^59) over (1 + a) as Q30 (≥ 2^29).
    @inline(never)
    static func factor(_ a: Int64) -> Int64 {
        guard a != 0 else { return 0 }
        let numerator = a &<< 20
        let denominator = ((Int64(1) << 40) &+ a) &>> 10
        return (numerator &+ (a < 0 ? 0 &- denominator / 2 : denominator / 2)) / denominator
    }
}

/// a·b / 2^60, rounded (to ±1), for |a|, |b| ≤ 2^60 with a result that fits: a = a_h·2^30 + a_l
/// (0 ≤ a_l < 2^30, |a_h| ≤ 2^30), so a·b/2^60 = a_h·b/2^30 + (a_l·b/2^30)/2^30 — two
/// `wideProduct`s, whose factors are inside its ±2^31.
@inline(never)
func q60Product(_ a: Int64, _ b: Int64) -> Int64 {
    product(a &>> 30, b) &+ roundingShiftRight(product(a & ((1 << 30) &- 1), b), by: 30)
}

/// `wideProduct` out of line: the estimator runs once per judged turn, and on the firmware each
/// inlined copy (two 64-bit products of the value's halves) costs flash.
@inline(never)
func product(_ gain: Int64, _ value: Int64) -> Int64 { wideProduct(gain, value) }

/// A sum of Q30 rad turns clamped at ±2^50 (`FixedDeviceFixedFieldTest.limit`), out of line.
@inline(never)
func turnSum(_ a: Int64, _ b: Int64) -> Int64 { clamped(a &+ b, 1 << 50) }
