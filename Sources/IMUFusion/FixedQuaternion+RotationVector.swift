// Quaternions from rotation vectors: what gyro integration needs each sample. The rotation
// by angle θ about unit axis n is (cos(θ/2), n·sin(θ/2)); with the half-angle vector
// h = θn/2 that is (cos|h|, h·sin|h|/|h|), and both cos and sin(t)/t are series in |h|²,
// so no square root, no division and no special case at zero are needed.

extension FixedQuaternion {
    /// The rotation by the rotation vector θ (radians, Q3.29: axis × angle).
    ///
    /// Uses the series of cos and sinc to 12th/10th order, so it is exact (not a first- or
    /// second-order approximation) to within 2 LSB per component for |θ| ≤ 1 rad and unit to
    /// within 4 LSB of |q|² (tests); it is not renormalised (the product it goes into is).
    /// Beyond |θ| = 2√2 rad in one step (past any sensible ω·dt) the squared half-angle
    /// saturates at 2: the axis stays right, the angle is short, and renormalisation after the
    /// product makes it a unit quaternion again.
    @inlinable @inline(__always)
    public init(rotationVector theta: FixedVector3<Q29>) {
        // The half-angle vector θ/2 in Q2.30 has exactly the raw integers of θ in Q3.29.
        let (hx, hy, hz) = (Int64(theta.x.raw), Int64(theta.y.raw), Int64(theta.z.raw))
        // |h|² in Q60 as halved products (≤ 1.5 · 2^62 in all), then Q30, saturated below 2.
        let squaredHalfAngle = Swift.min(
            roundingShiftRight((hx &* hx) &>> 1 &+ (hy &* hy) &>> 1 &+ (hz &* hz) &>> 1, by: 29),
            Int64(Int32.max))
        // Per-sample steps are small (35 rad/s for 10 ms is 0.35 rad): below |θ/2|² = 2⁻⁵ the
        // series to θ⁶ are exact to < 0.03 LSB and half as long.
        let series = squaredHalfAngle <= 1 << 25
            ? FixedMath.cosineAndSinc(ofSmallSquaredAngle: squaredHalfAngle)
            : FixedMath.cosineAndSinc(ofSquaredAngle: squaredHalfAngle)
        @inline(__always) func component(_ h: Int64) -> Q30 {
            Q30(raw: saturatedInt32(roundingShiftRight(h &* series.sinc, by: 30)))
        }
        self.init(w: Q30(raw: saturatedInt32(series.cosine)), x: component(hx), y: component(hy), z: component(hz))
    }

    /// The gyro integration step (the filter's, and its Double reference's): the rotation by θ
    /// with cos and sin(x)/x of the half angle to second order, (1 − |h|²/2, h·(1 − |h|²/6)),
    /// h = θ/2; the angle's error is |h|⁵/15 (2 × 10⁻⁹ rad at 0.06 rad per step). That
    /// quaternion has |q|² = 1 − |h|⁴/12 + |h|⁶/36, so both parts are also multiplied by
    /// 1 + |h|⁴/24 (its 1/|q| to that order; the rotation is the same, the angle moves by
    /// O(|h|⁷)): (1 − |h|²/2 + |h|⁴/24, h·(1 − |h|²/6 + |h|⁴/24)), with |q|² = 1 + 5|h|⁶/72.
    /// Three multiplies instead of the series.
    /// `isUnit`: the squared half-angle stayed below its saturation at 2 (|θ| < 2√2 rad), so
    /// |q| < 1.2 and `unitProduct` may take it.
    /// `isNormalised`: |h|² ≤ 2⁻⁹ (|θ| ≤ 0.088 rad: 25 rad/s at 286 Hz, 88 rad/s at 1 kHz), so
    /// 5|h|⁶/72 ≤ 0.6 LSB and with the components' roundings | |q|² − 1 | ≤ 2.6 LSB: the product
    /// with a unit attitude needs no renormalisation on this sample.
    @inlinable @inline(__always)
    static func integrationStep(
        rotationVector theta: FixedVector3<Q29>
    ) -> (quaternion: FixedQuaternion, isUnit: Bool, isNormalised: Bool) {
        let step = integrationStepRaw(Int64(theta.x.raw), Int64(theta.y.raw), Int64(theta.z.raw))
        return (FixedQuaternion(rawStep: step.w, step.x, step.y, step.z), step.isUnit, step.isNormalised)
    }

    /// `integrationStep` on θ's raw Q29 integers (each in Int32's range), with the step's
    /// components as the Int64 values of its Q30 raw integers (they fit Int32, see below): the
    /// gyro step multiplies them on without a round trip through Int32.
    @inlinable @inline(__always)
    static func integrationStepRaw(
        _ hx: Int64, _ hy: Int64, _ hz: Int64
    ) -> (w: Int64, x: Int64, y: Int64, z: Int64, isUnit: Bool, isNormalised: Bool) {
        // Saturated below 2 (Q30): inside Int32, so that the products below fit.
        let squaredHalfAngle = Int64(Swift.min(squaredHalfAngleQ30(hx, hy, hz), UInt64(Int32.max)))
        let step = integrationStepRaw(hx, hy, hz, squaredHalfAngle: squaredHalfAngle)
        return (step.w, step.x, step.y, step.z, squaredHalfAngle < Int64(Int32.max),
                squaredHalfAngle <= normalisedStepLimit)
    }

    /// |h|² ≤ this (Q30, 2⁻⁹): the step is normalised (see `integrationStep`).
    @inlinable @inline(__always)
    static var normalisedStepLimit: Int64 { 1 << 21 }

    /// |h|² (Q30, rounded, unsaturated) of the half-angle vector given by θ's raw Q29 integers.
    /// Each square ≤ 2^62 (Q60), so the three fit UInt64 (< 2^64).
    @inlinable @inline(__always)
    static func squaredHalfAngleQ30(_ hx: Int64, _ hy: Int64, _ hz: Int64) -> UInt64 {
        let squares = UInt64(bitPattern: hx &* hx) &+ UInt64(bitPattern: hy &* hy) &+ UInt64(bitPattern: hz &* hz)
        return (squares &+ (1 << 29)) &>> 30
    }

    /// The step for a given |h|² (`squaredHalfAngleQ30`, 0 ≤ |h|² ≤ Int32.max). The gyro step
    /// calls it directly when |h|² ≤ `normalisedStepLimit` (the usual case: no saturation to
    /// take, and isUnit and isNormalised both hold), the same integers as `integrationStepRaw`.
    @inlinable @inline(__always)
    static func integrationStepRaw(
        _ hx: Int64, _ hy: Int64, _ hz: Int64, squaredHalfAngle: Int64
    ) -> (w: Int64, x: Int64, y: Int64, z: Int64) {
        // |h|⁴/24 (Q30): |h|⁴ < 2^62, to Q30 < 2^32, times 2^30/24 (44 739 243) < 2^58.
        let normalizing = roundingShiftRight(
            ((squaredHalfAngle &* squaredHalfAngle) &>> 30) &* 44_739_243, by: 30)
        // 0 ≤ |h|² < 2: w = 1 − |h|²/2 + |h|⁴/24 in (0, 1], sinc = 1 − |h|²/6 + |h|⁴/24 in
        // (⅘, 1] (2^30/6 rounded is 178 956 971), |h · sinc| ≤ |h| < 2^31: everything fits
        // Int32 without saturation.
        // 1 + |h|⁴/24 once for both (the same integers in any order: wrapping adds; written
        // so, two instructions fewer per sample than 1 − r + n twice).
        let base = normalizing &+ (Int64(1) << 30)
        let w = base &- roundingShiftRight(squaredHalfAngle, by: 1)
        let sinc = base &- roundingShiftRight(squaredHalfAngle &* 178_956_971, by: 30)
        @inline(__always) func component(_ h: Int64) -> Int64 { roundingShiftRight(h &* sinc, by: 30) }
        return (w, component(hx), component(hy), component(hz))
    }

    /// The rotation of a body turning at `angularRate` (rad/s, Q16.16, device frame) for
    /// `interval` seconds (Q2.30): θ = ω·dt, rounded, each component saturating at ±4 rad.
    /// The attitude update is `(attitude * FixedQuaternion(angularRate: ω, interval: dt)).normalized()`.
    @inlinable
    public init(angularRate: FixedVector3<Q16>, interval: Q30) {
        // Q16 × Q30 = Q46; Q29 is 17 bits less.
        let dt = Int64(interval.raw)
        @inline(__always) func angle(_ rate: Q16) -> Q29 {
            Q29(raw: saturatedInt32(roundingShiftRight(Int64(rate.raw) &* dt, by: 17)))
        }
        self.init(rotationVector: FixedVector3(x: angle(angularRate.x), y: angle(angularRate.y), z: angle(angularRate.z)))
    }

    /// The rotation by `angle` radians about the unit vector `axis` (right-handed).
    @inlinable
    public init(axis: FixedVector3<Q30>, angle: Q29) {
        let half = FixedMath.sinCos(Q29(raw: Int32(truncatingIfNeeded: roundingShiftRight(Int64(angle.raw), by: 1))))
        self.init(w: half.cos, x: axis.x.multiplied(by: half.sin), y: axis.y.multiplied(by: half.sin),
                  z: axis.z.multiplied(by: half.sin))
    }
}

extension FixedQuaternion {
    /// The raw step's components as a quaternion (they fit Q2.30, see `integrationStepRaw`).
    @inlinable @inline(__always)
    init(rawStep w: Int64, _ x: Int64, _ y: Int64, _ z: Int64) {
        self.init(w: Q30(raw: Int32(truncatingIfNeeded: w)), x: Q30(raw: Int32(truncatingIfNeeded: x)),
                  y: Q30(raw: Int32(truncatingIfNeeded: y)), z: Q30(raw: Int32(truncatingIfNeeded: z)))
    }
}
