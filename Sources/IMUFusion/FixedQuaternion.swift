/// A quaternion (w, x, y, z) of Q2.30 components; as an attitude it is a unit quaternion that
/// rotates device coordinates into the reference frame (ENU), as in the design notes.
///
/// Products accumulate their 64-bit terms and round once per component (half up), then
/// saturate, so no input — however far from unit — wraps around.
public struct FixedQuaternion: Sendable, Equatable {
    public var w: Q30
    public var x: Q30
    public var y: Q30
    public var z: Q30

    @inlinable @inline(__always)
    public init(w: Q30, x: Q30, y: Q30, z: Q30) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// (1, 0, 0, 0): no rotation.
    @inlinable public static var identity: FixedQuaternion {
        FixedQuaternion(w: .one, x: .zero, y: .zero, z: .zero)
    }

    /// The vector part (x, y, z).
    @inlinable
    public var vector: FixedVector3<Q30> { FixedVector3(x: x, y: y, z: z) }

    /// (w, −x, −y, −z): for a unit quaternion, the inverse rotation. Saturating negation.
    @inlinable @inline(__always)
    public var conjugate: FixedQuaternion { FixedQuaternion(w: w, x: -x, y: -y, z: -z) }

    /// The Hamilton product lhs ⊗ rhs (apply rhs, then lhs). Each component is the sum of its
    /// four 64-bit products (quartered first, so any inputs fit: the bits lost are 2⁻²⁸ LSB),
    /// rounded once, saturating: within ½ LSB of the exact product of the inputs (tests).
    @inlinable @inline(__always)
    public static func * (lhs: FixedQuaternion, rhs: FixedQuaternion) -> FixedQuaternion {
        let (w, x, y, z) = quarteredProductSums(lhs, rhs)
        @inline(__always) func q30(_ v: Int64) -> Q30 {
            Q30(raw: saturatedInt32(roundingShiftRight(v, by: 28)))
        }
        return FixedQuaternion(w: q30(w), x: q30(x), y: q30(y), z: q30(z))
    }

    /// `*` for factors with |lhs|·|rhs| < 2 − 2⁻²⁸ (e.g. a unit quaternion and a small turn
    /// (1, v) with |v|² ≤ ½): every component of the rounded product fits Q2.30, so the
    /// saturation is the identity and is left out. The same integers as `*`.
    @inlinable @inline(__always)
    static func boundedProduct(_ lhs: FixedQuaternion, _ rhs: FixedQuaternion) -> FixedQuaternion {
        let (w, x, y, z) = quarteredProductSums(lhs, rhs)
        @inline(__always) func q30(_ v: Int64) -> Q30 {
            Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight(v, by: 28)))
        }
        return FixedQuaternion(w: q30(w), x: q30(x), y: q30(y), z: q30(z))
    }

    /// The components of lhs ⊗ rhs as sums of quartered 64-bit products (Q58): products are
    /// ≤ 2^62, so four quartered ones fit Int64 for any inputs.
    @inlinable @inline(__always)
    static func quarteredProductSums(_ lhs: FixedQuaternion, _ rhs: FixedQuaternion) -> (Int64, Int64, Int64, Int64) {
        let (aw, ax, ay, az) = (Int64(lhs.w.raw), Int64(lhs.x.raw), Int64(lhs.y.raw), Int64(lhs.z.raw))
        let (bw, bx, by, bz) = (Int64(rhs.w.raw), Int64(rhs.x.raw), Int64(rhs.y.raw), Int64(rhs.z.raw))
        @inline(__always) func p(_ a: Int64, _ b: Int64) -> Int64 { (a &* b) &>> 2 }
        return (p(aw, bw) &- p(ax, bx) &- p(ay, by) &- p(az, bz),
                p(aw, bx) &+ p(ax, bw) &+ p(ay, bz) &- p(az, by),
                p(aw, by) &- p(ax, bz) &+ p(ay, bw) &+ p(az, bx),
                p(aw, bz) &+ p(ax, by) &- p(ay, bx) &+ p(az, bw))
    }

    /// lhs ⊗ rhs for factors with |lhs|·|rhs| < 2 − 2⁻²⁹ (e.g. two nearly unit quaternions):
    /// then every component, bounded by |lhs ⊗ rhs| = |lhs|·|rhs|, fits Q2.30 after rounding,
    /// and so does every partial sum of its four products in Q60 (a dot product of parts of
    /// the two, ≤ |lhs|·|rhs| · 2^60 < 2^61 by Cauchy–Schwarz). So the products need no
    /// quartering and the result no saturation: `*` without both, the exact product rounded
    /// once (`*` may differ by 1 LSB where its quartering moves a tie).
    @inlinable @inline(__always)
    static func unitProduct(_ lhs: FixedQuaternion, _ rhs: FixedQuaternion) -> FixedQuaternion {
        unitProduct(lhs, w: Int64(rhs.w.raw), x: Int64(rhs.x.raw), y: Int64(rhs.y.raw), z: Int64(rhs.z.raw))
    }

    /// `unitProduct` with rhs given by its components' raw integers (each in Int32's range).
    @inlinable @inline(__always)
    static func unitProduct(_ lhs: FixedQuaternion, w bw: Int64, x bx: Int64, y by: Int64, z bz: Int64) -> FixedQuaternion {
        let (aw, ax, ay, az) = (Int64(lhs.w.raw), Int64(lhs.x.raw), Int64(lhs.y.raw), Int64(lhs.z.raw))
        let w = aw &* bw &- ax &* bx &- ay &* by &- az &* bz
        let x = aw &* bx &+ ax &* bw &+ ay &* bz &- az &* by
        let y = aw &* by &- ax &* bz &+ ay &* bw &+ az &* bx
        let z = aw &* bz &+ ax &* by &- ay &* bx &+ az &* bw
        @inline(__always) func q30(_ v: Int64) -> Q30 { Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight(v, by: 30))) }
        return FixedQuaternion(w: q30(w), x: q30(x), y: q30(y), z: q30(z))
    }

    /// w² + x² + y² + z² exactly, as a Q58 significand (each square quartered so that four
    /// full-scale squares still fit).
    @inlinable @inline(__always)
    public var squaredNormSignificand: UInt64 {
        @inline(__always) func square(_ c: Q30) -> UInt64 { UInt64(Int64(c.raw) &* Int64(c.raw)) &>> 2 }
        return square(w) &+ square(x) &+ square(y) &+ square(z)
    }

    /// |q|² as Q2.30, rounded, saturating.
    @inlinable
    public var squaredNorm: Q30 {
        Q30(raw: saturatedInt32(Int64(clamping: (squaredNormSignificand &+ (1 << 27)) >> 28)))
    }

    /// q / |q|: the unit quaternion of the same rotation, computed from the exact 64-bit |q|²
    /// and a 1/√ with relative error ≤ 5 × 10⁻¹⁰, so afterwards | |q|² − 1 | ≤ 4 LSB of Q2.30 (tests),
    /// whatever |q| was; the norm does not drift however often it is applied, because every
    /// call starts again from the exact norm. The zero quaternion becomes the identity.
    /// Cost: ~11 multiplies.
    @inlinable
    public func normalized() -> FixedQuaternion {
        let squaredNorm = squaredNormSignificand
        guard squaredNorm != 0 else { return .identity }
        let parts = FixedMath.reciprocalSquareRootParts(ofSignificand: squaredNorm, fractionBits: 58)
        // The mantissa as Q31 (< 2^32) keeps component × mantissa inside Int64.
        let mantissa = roundingShiftRight(parts.mantissa, by: 1)
        // component (Q30) · mantissa (Q31) · 2^exponent → Q30: shift right by 31 − exponent.
        // |q| ≥ 2^−30 bounds 1/|q| ≤ 2^30, so the exponent is ≤ 30 and the shift ≥ 1.
        let shift = 31 - parts.exponent
        @inline(__always) func scale(_ c: Q30) -> Q30 {
            Q30(raw: saturatedInt32(roundingShiftRight(Int64(c.raw) &* mantissa, by: shift)))
        }
        return FixedQuaternion(w: scale(w), x: scale(x), y: scale(y), z: scale(z))
    }

    /// The rotation matrix of this (unit) quaternion, device → reference like the quaternion.
    /// Written with w², x², y², z² on the diagonal so that it scales by |q|² rather than
    /// assuming it. Entries within 1 LSB of the exact matrix of the same quaternion; saturating.
    @inlinable @inline(__always)
    public var rotationMatrix: FixedMatrix3 { rotationMatrix(saturating: true) }

    /// `rotationMatrix` of a quaternion with |q|² < 2 − 2⁻²⁹ (any normalised one): every entry
    /// is bounded by |q|² (|2(xy − wz)| ≤ x² + y² + w² + z², likewise the diagonal), so it fits
    /// Q2.30 and the saturation step is left out. The same integers, cheaper.
    @inlinable @inline(__always)
    var unitRotationMatrix: FixedMatrix3 { rotationMatrix(saturating: false) }

    /// Row 2 of `unitRotationMatrix` alone (the vertical in device axes for a device → earth
    /// attitude): the same integers, 6 of its 10 products.
    @inlinable @inline(__always)
    var unitRotationRow2: FixedVector3<Q30> {
        let (w, x, y, z) = (Int64(self.w.raw), Int64(self.x.raw), Int64(self.y.raw), Int64(self.z.raw))
        @inline(__always) func p(_ a: Int64, _ b: Int64) -> Int64 { (a &* b) &>> 2 }
        @inline(__always) func q30(_ v: Int64, by shift: Int) -> Q30 {
            Q30(raw: Int32(truncatingIfNeeded: roundingShiftRight(v, by: shift)))
        }
        return FixedVector3(
            x: q30(p(x, z) &- p(w, y), by: 27), y: q30(p(y, z) &+ p(w, x), by: 27),
            z: q30(p(w, w) &- p(x, x) &- p(y, y) &+ p(z, z), by: 28))
    }

    @inlinable @inline(__always)
    func rotationMatrix(saturating: Bool) -> FixedMatrix3 {
        let (w, x, y, z) = (Int64(self.w.raw), Int64(self.x.raw), Int64(self.y.raw), Int64(self.z.raw))
        // Products quartered (Q58) so that any inputs fit; the off-diagonal 2·(…) is a shift of 27.
        @inline(__always) func p(_ a: Int64, _ b: Int64) -> Int64 { (a &* b) &>> 2 }
        let (ww, xx, yy, zz) = (p(w, w), p(x, x), p(y, y), p(z, z))
        let (xy, xz, yz) = (p(x, y), p(x, z), p(y, z))
        let (wx, wy, wz) = (p(w, x), p(w, y), p(w, z))
        @inline(__always) func q30(_ v: Int64) -> Q30 {
            Q30(raw: saturating ? saturatedInt32(v) : Int32(truncatingIfNeeded: v))
        }
        @inline(__always) func diagonal(_ v: Int64) -> Q30 { q30(roundingShiftRight(v, by: 28)) }
        @inline(__always) func twice(_ v: Int64) -> Q30 { q30(roundingShiftRight(v, by: 27)) }
        return FixedMatrix3(
            row0: FixedVector3(x: diagonal(ww &+ xx &- yy &- zz), y: twice(xy &- wz), z: twice(xz &+ wy)),
            row1: FixedVector3(x: twice(xy &+ wz), y: diagonal(ww &- xx &+ yy &- zz), z: twice(yz &- wx)),
            row2: FixedVector3(x: twice(xz &- wy), y: twice(yz &+ wx), z: diagonal(ww &- xx &- yy &+ zz)))
    }

    /// q v q*: the vector v (device frame) in the reference frame, in v's format. For a unit
    /// q within 2 LSB of the exact rotation (tests). Rotating several vectors by one attitude?
    /// Form `rotationMatrix` once and multiply.
    @inlinable @inline(__always)
    public func rotate<Scalar>(_ v: FixedVector3<Scalar>) -> FixedVector3<Scalar> {
        rotationMatrix * v
    }

    /// q* v q: the vector v (reference frame) in the device frame, in v's format.
    @inlinable @inline(__always)
    public func inverseRotate<Scalar>(_ v: FixedVector3<Scalar>) -> FixedVector3<Scalar> {
        rotationMatrix.transposeTimes(v)
    }
}
