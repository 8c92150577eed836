// Wide fixed point for the filter's slow states. A low-pass with gain k ≈ 5 × 10⁻⁴ (τ = 2 s
// at 1 kHz) moves its state by k·(x − s) per sample; in Q2.30 everything closer than
// ½ LSB / k ≈ 10⁻⁶ to the input would stop moving, and the gyro bias moves by ~10⁻¹¹ rad/s
// per sample in motion. So the states that integrate small increments (every low-pass, the
// bias, the magnetic references, the heading accuracy) are Int64 with 40 fraction bits
// ("Q40": resolution 9 × 10⁻¹³, range ±8 × 10⁶), and times are Int64 Q30 seconds.
//
// Products of a Q2.30 gain and a Q40 value would need 2^30 · 2^52 bits at the extremes, so
// `wideProduct` splits the value into its high and low 32-bit halves: two 64-bit multiplies,
// exact (the same integer as a 128-bit product rounded half up), identical on every target.

/// Fraction bits of the wide (Int64) states.
@usableFromInline let wideFractionBits = 40

/// `gain · value / 2^30`, rounded half up: a Q2.30 factor (|gain| ≤ 2^31) times a wide value
/// (|value| ≤ 2^60), in the value's format. Exact: (g·h·2^32 + g·l + 2^29) >> 30 with
/// value = h·2^32 + l, 0 ≤ l < 2^32, and g·h·2^32 divisible by 2^30.
/// On the host the same integer comes from one 64 × 64 → 128-bit multiply (one instruction
/// on x86-64 and arm64); the firmware (armv6m, no 64-bit multiplier) uses the split form.
@inlinable @inline(__always)
public func wideProduct(_ gain: Int64, _ value: Int64) -> Int64 {
    #if hasFeature(Embedded)
    let high = value &>> 32
    let low = value & 0xFFFF_FFFF
    return (gain &* high) &<< 2 &+ ((gain &* low &+ (1 << 29)) &>> 30)
    #else
    // (g·v + 2^29) >> 30 on the 128-bit product: add to the low word with carry, then take
    // bits 30 … 93.
    let (high, low) = gain.multipliedFullWidth(by: value)
    let (sum, carry) = low.addingReportingOverflow(1 << 29)
    let top = high &+ (carry ? 1 : 0)
    return (top &<< 34) | Int64(bitPattern: sum &>> 30)
    #endif
}

/// A Q16.16 value (rad/s, g, µT) as Q40.
@inlinable @inline(__always)
func wide(_ value: Q16) -> Int64 { Int64(value.raw) &<< 24 }

/// A Q2.30 value as Q40.
@inlinable @inline(__always)
func wide(_ value: Q30) -> Int64 { Int64(value.raw) &<< 10 }

/// A wide value clamped to ±limit (limit ≥ 0: its negation needs no overflow check).
@inlinable @inline(__always)
func clamped(_ value: Int64, _ limit: Int64) -> Int64 { Swift.min(Swift.max(value, 0 &- limit), limit) }

/// A 3-vector of Q40 values (Int64).
public struct WideVector3: Sendable, Equatable {
    public var x: Int64
    public var y: Int64
    public var z: Int64

    @inlinable @inline(__always)
    public init(x: Int64, y: Int64, z: Int64) {
        self.x = x
        self.y = y
        self.z = z
    }

    @inlinable public static var zero: WideVector3 { WideVector3(x: 0, y: 0, z: 0) }

    /// A Q16.16 sample as Q40 (exact).
    @inlinable @inline(__always)
    public init(_ v: FixedVector3<Q16>) { self.init(x: wide(v.x), y: wide(v.y), z: wide(v.z)) }

    /// A Q2.30 vector as Q40 (exact).
    @inlinable @inline(__always)
    public init(_ v: FixedVector3<Q30>) { self.init(x: wide(v.x), y: wide(v.y), z: wide(v.z)) }

    /// A Q16.16 sample's raw integers, unscaled (for sums widened later).
    @inlinable @inline(__always)
    public init(raw v: FixedVector3<Q16>) { self.init(x: Int64(v.x.raw), y: Int64(v.y.raw), z: Int64(v.z.raw)) }

    /// Wrapping sum; the states are far inside the range (|·| ≤ 2^52).
    @inlinable @inline(__always)
    public static func + (a: WideVector3, b: WideVector3) -> WideVector3 {
        WideVector3(x: a.x &+ b.x, y: a.y &+ b.y, z: a.z &+ b.z)
    }

    @inlinable @inline(__always)
    public static func - (a: WideVector3, b: WideVector3) -> WideVector3 {
        WideVector3(x: a.x &- b.x, y: a.y &- b.y, z: a.z &- b.z)
    }

    /// Each component times a Q2.30 gain (see `wideProduct`).
    @inlinable @inline(__always)
    public func scaled(by gain: Int64) -> WideVector3 {
        WideVector3(x: wideProduct(gain, x), y: wideProduct(gain, y), z: wideProduct(gain, z))
    }

    /// Each component clamped to ±limit (limit ≥ 0: the clips and ranges of the filter).
    @inlinable @inline(__always)
    public func componentsClamped(_ limit: Int64) -> WideVector3 {
        @inline(__always) func c(_ v: Int64) -> Int64 { Swift.min(Swift.max(v, 0 &- limit), limit) }
        return WideVector3(x: c(x), y: c(y), z: c(z))
    }

    /// The components rounded to Q2.30 (as Int64: a unit-range factor for `wideProduct`).
    @inlinable @inline(__always)
    public var q30Factors: (x: Int64, y: Int64, z: Int64) {
        (roundingShiftRight(x, by: 10), roundingShiftRight(y, by: 10), roundingShiftRight(z, by: 10))
    }

    /// The vector rounded to Q16.16, saturating (for outputs).
    @inlinable @inline(__always)
    public var q16: FixedVector3<Q16> {
        @inline(__always) func c(_ v: Int64) -> Q16 { Q16(raw: saturatedInt32(roundingShiftRight(v, by: 24))) }
        return FixedVector3(x: c(x), y: c(y), z: c(z))
    }

    /// Squared length of the vector rounded to Q24 (as Q48); for comparisons with squared
    /// thresholds (all far below 64). Components are first clamped to ±64 (2^30 in Q24), so
    /// the sum (≤ 3 · 2^60) fits even for a difference of two full-scale samples.
    @inlinable @inline(__always)
    public var squaredLengthQ48: Int64 {
        @inline(__always) func q24(_ v: Int64) -> Int64 { clamped(roundingShiftRight(v, by: 16), 1 << 30) }
        let (a, b, c) = (q24(x), q24(y), q24(z))
        return a &* a &+ b &* b &+ c &* c
    }

    /// `squaredLengthQ48` of a vector already within ±64 per component (Q40: ±2^46), e.g. a
    /// low-pass of clamped gyro samples (each step moves by a rounded fraction ≤ 1 of the gap
    /// to an input inside ±64, so it stays inside): the clamp is the identity there (±2^46
    /// rounds to ±2^30 in Q24) and is left out. The same integer.
    @inlinable @inline(__always)
    public var squaredLengthQ48OfBounded: Int64 {
        let (a, b, c) = (roundingShiftRight(x, by: 16), roundingShiftRight(y, by: 16), roundingShiftRight(z, by: 16))
        return a &* a &+ b &* b &+ c &* c
    }
}

extension FixedMatrix3 {
    /// M · v for a Q16.16 sample, with the result kept at Q40 (no rounding to Q16: the
    /// low-pass after it averages far below the input's LSB). |v| ≤ 2^20 keeps products < 2^50.
    @inlinable @inline(__always)
    public func timesWide(_ v: FixedVector3<Q16>) -> WideVector3 {
        @inline(__always) func row(_ r: FixedVector3<Q30>) -> Int64 {
            // Q30 · Q16 = Q46; to Q40 is a shift of 6.
            let sum = Int64(r.x.raw) &* Int64(v.x.raw) &+ Int64(r.y.raw) &* Int64(v.y.raw)
                &+ Int64(r.z.raw) &* Int64(v.z.raw)
            return roundingShiftRight(sum, by: 6)
        }
        return WideVector3(x: row(row0), y: row(row1), z: row(row2))
    }
}

extension FixedQuaternion {
    /// q f q* − f for a unit q and f the specific force of a clamped acceleration a (f = −a, Core
    /// Motion sign) or of the sum of up to three (Q16.16, |components| ≤ 3 · 2^21, |f| < 2^23.4),
    /// kept at Q40 like `FixedMatrix3.timesWide` (the low-pass after it averages far below the
    /// input's LSB): the rotation's change of the force alone, 2w(u × f) + 2u × (u × f) with u the
    /// vector part (15 multiplies instead of the 19 of forming R(q) and multiplying). The sign of f
    /// goes into the operands' order, so a is not negated. t = u × f is rounded to Q24 (|t| ≤ |f| <
    /// 2^31.4 raw, error 3 × 10⁻⁸ g); w·t + u × t is Q54 (|·| ≤ √2·|q|·|t| < 2^61.9), the doubled
    /// term Q53: inside Int64. The force's own term, −a·2^24 (Q40, a multiple of the rounding's
    /// unit), is added once per decimated span from the sum of the a's (`FixedFusionDecimation`),
    /// which saves three products by −2^37 per rotation.
    @inlinable @inline(__always)
    func rotationChangeWide(specificForceOf a: FixedVector3<Q16>) -> WideVector3 {
        let (w, x, y, z) = (Int64(self.w.raw), Int64(self.x.raw), Int64(self.y.raw), Int64(self.z.raw))
        let (fx, fy, fz) = (Int64(a.x.raw), Int64(a.y.raw), Int64(a.z.raw))
        let tx = roundingShiftRight(z &* fy &- y &* fz, by: 22)
        let ty = roundingShiftRight(x &* fz &- z &* fx, by: 22)
        let tz = roundingShiftRight(y &* fx &- x &* fy, by: 22)
        return WideVector3(
            x: roundingShiftRight(w &* tx &+ (y &* tz &- z &* ty), by: 13),
            y: roundingShiftRight(w &* ty &+ (z &* tx &- x &* tz), by: 13),
            z: roundingShiftRight(w &* tz &+ (x &* ty &- y &* tx), by: 13))
    }
}

extension FixedQuaternion {
    /// q m q* for a unit q and a magnetometer sample clamped to ±2048 µT (Q16.16, |m| ≤ 2^27.8),
    /// in m's format, by the same formula as `rotationChangeWide`: t = u × m rounded to Q16
    /// (≤ 2^27.8), w·t + u × t in Q46 (≤ 3 · 2^57.8) is the doubled term in Q45, where m is
    /// m·2^29 (≤ 2^56.8); rounded back to Q16 (t's rounding costs ≤ 1.5 LSB, far below µT).
    @inlinable @inline(__always)
    func rotatedField(_ m: FixedVector3<Q16>) -> FixedVector3<Q16> {
        let (w, x, y, z) = (Int64(self.w.raw), Int64(self.x.raw), Int64(self.y.raw), Int64(self.z.raw))
        let (mx, my, mz) = (Int64(m.x.raw), Int64(m.y.raw), Int64(m.z.raw))
        let tx = roundingShiftRight(y &* mz &- z &* my, by: 30)
        let ty = roundingShiftRight(z &* mx &- x &* mz, by: 30)
        let tz = roundingShiftRight(x &* my &- y &* mx, by: 30)
        // Each result component is at most |m| + 2|w||t| + 2|u||t| + rounding ≤ 5·|m| < 2^30.2
        // (|t| ≤ |u||m| + 2, |w|, |u| ≤ 1 + 2⁻²⁰ for a unit q): inside Int32 without saturation.
        @inline(__always) func q16(_ m: Int64, _ doubled: Int64) -> Q16 {
            Q16(raw: Int32(truncatingIfNeeded: roundingShiftRight((m &<< 29) &+ doubled, by: 29)))
        }
        return FixedVector3(
            x: q16(mx, w &* tx &+ (y &* tz &- z &* ty)),
            y: q16(my, w &* ty &+ (z &* tx &- x &* tz)),
            z: q16(mz, w &* tz &+ (x &* ty &- y &* tx)))
    }
}
