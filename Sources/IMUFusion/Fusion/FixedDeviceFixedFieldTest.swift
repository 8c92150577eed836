/// Does the field turn with the device (the reference's `DeviceFixedFieldTest`, in integers)?
/// Nothing per sample: the turn about the vertical is added on the decimated step
/// (`addTurn(rate:up:span:)`), the direction's change on the magnetometer step (`update`).
/// Angles are Int64 Q30 rad, summed with a clamp at ±2^50 (10⁶ rad), so no run of turns
/// without a quiet moment can overflow them; the ratio test is a multiply-compare.
public struct FixedDeviceFixedFieldTest: Sendable, Equatable {
    /// 0 not yet judged, 1 fixed to the earth, −1 turns with the device (the reference's `Verdict`).
    public var verdict: Int8 = 0
    /// The last judged turn moved the field's direction by at least `deviceFixedFieldFollowRatio`
    /// of it (the reference's `followsDevice`).
    public var followsDevice = false
    public var hasAnchor = false
    /// The field's horizontal part in the 6D frame at the last sample (Q16.16 µT).
    public var lastHorizontalX: Int32 = 0
    public var lastHorizontalY: Int32 = 0
    /// The direction's change and the angle turned about the vertical since the anchor (Q30 rad).
    public var directionChange: Int64 = 0
    public var turned: Int64 = 0
    /// While the sensitivity is learnt (`FixedFusionCoefficients.learnsGyroSensitivity`): the
    /// turn since the anchor per device axis, ∫ω_i·u_i dt (the estimator's regressor), and
    /// about the 6D frame's horizontal axes (its noise), Q30 rad, clamped like `turned`.
    public var turnedPerAxis = WideVector3.zero
    public var turnedHorizontalX: Int64 = 0
    public var turnedHorizontalY: Int64 = 0

    @inlinable public init() {}

    /// The sums from one quiet moment to the next (the reference's `DeviceFixedFieldTest.Span`):
    /// `verdict` 0 when the span judged nothing, else the verdict it judged; Q30 rad.
    public struct Span: Sendable, Equatable {
        public var verdict: Int8
        public var directionChange: Int64
        public var turnedPerAxis: WideVector3
        public var turnedHorizontalX: Int64
        public var turnedHorizontalY: Int64

        @inlinable
        public init(
            verdict: Int8, directionChange: Int64, turnedPerAxis: WideVector3, turnedHorizontalX: Int64,
            turnedHorizontalY: Int64
        ) {
            self.verdict = verdict
            self.directionChange = directionChange
            self.turnedPerAxis = turnedPerAxis
            self.turnedHorizontalX = turnedHorizontalX
            self.turnedHorizontalY = turnedHorizontalY
        }
    }

    /// The accumulators' bound (Q30 rad): far beyond any turn between two quiet moments, and
    /// inside `wideProduct`'s range (|value| ≤ 2^60).
    @usableFromInline static let limit: Int64 = 1 << 50

    /// One decimated step: `rate` the span's mean rate less the bias (Q40 rad/s, |components| ≤
    /// 68 rad/s), `up` the vertical in device axes (row 2 of R(q6), unit, Q30), `span` the step's
    /// time (Q30 s, < 2^31). The turn up·rate·span: the rate as Q24 (< 2^30.1 a component),
    /// the dot product Q54 (|·| ≤ |up|·|rate| < 2^60.9) to Q24, times span (< 2^61.9), to Q30 rad.
    /// Returns the span's turn (Q30 rad, < 2^38: the product above is < 2^61.9 before its shift).
    @inlinable @inline(__always) @discardableResult
    public mutating func addTurn(rate: WideVector3, up: FixedVector3<Q30>, span: Int64) -> Int64 {
        let along = Int64(up.x.raw) &* (rate.x &>> 16) &+ Int64(up.y.raw) &* (rate.y &>> 16)
            &+ Int64(up.z.raw) &* (rate.z &>> 16)
        let turn = ((along &>> 30) &* span) &>> 24
        turned = clamped(turned &+ turn, Self.limit)
        return turn
    }

    /// One decimated step's turn per device axis and about the 6D frame's horizontal axes (Q30
    /// rad, each < 2^39.1: see `fixedFusionSensitivityTurn`), summed with the clamp.
    @inline(__always)
    mutating func addTurn(perAxis turn: WideVector3, horizontalX: Int64, horizontalY: Int64) {
        turnedPerAxis = (turnedPerAxis + turn).componentsClamped(Self.limit)
        turnedHorizontalX = clamped(turnedHorizontalX &+ horizontalX, Self.limit)
        turnedHorizontalY = clamped(turnedHorizontalY &+ horizontalY, Self.limit)
    }

    /// One magnetometer sample `field` (the field in the 6D frame, a rotated clamped sample:
    /// |field| < 2^27.8 raw); `quiet`: not turning; `maxRatio`, `minTurn`, `followRatio` Q30 (the
    /// last above 2^31: never, the default). The reference's
    /// steps, in an order that skips the direction's change where the reference's caller
    /// discards it (a quiet sample that judges nothing and ends no `pending` turn resets the sums).
    /// While the sensitivity is learnt (`learning`), a quiet sample after the anchor returns the
    /// span since it when it judged a turn or a turn is `pending` (the reference's `update`
    /// returns it on every quiet sample; its caller discards the others) and starts the per-axis
    /// and horizontal sums again; otherwise it returns nil and is the test alone.
    /// Inlined into its one caller, the magnetometer step (with the heading correction): the
    /// call's saves and spills cost more than its body's registers (≈ 30 a run on x86-64).
    @inlinable @_transparent @discardableResult
    public mutating func update(
        field m: FixedVector3<Q16>, quiet: Bool, maxRatio: Int64, minTurn: Int64, followRatio: Int64 = .max,
        learning: Bool = false, pending: Bool = false
    ) -> Span? {
        let (x, y, z) = (Int64(m.x.raw), Int64(m.y.raw), Int64(m.z.raw))
        // |m_h| > 0.1·|m| ⇔ 99·|m_h|² > m_z², both shifted by 7 (squares < 2^55.6 · 2: 99 · 2^49.6 fits).
        guard ((x &* x &+ y &* y) &>> 7) &* 99 > (z &* z) &>> 7 else {
            hasAnchor = false
            return nil
        }
        var span: Span?
        if quiet {
            let turnedMagnitude = turned.magnitude
            let judges = turnedMagnitude >= UInt64(minTurn)
            if hasAnchor && (judges || pending) {
                let change = clamped(
                    directionChange &+ Self.angle(Int64(lastHorizontalX), Int64(lastHorizontalY), x, y), Self.limit)
                if judges {
                    verdict = change.magnitude <= UInt64(wideProduct(maxRatio, Int64(turnedMagnitude))) ? 1 : -1
                    followsDevice = followRatio <= 1 << 31
                        && change.magnitude >= UInt64(wideProduct(followRatio, Int64(turnedMagnitude)))
                }
                if learning {
                    span = Span(
                        verdict: judges ? verdict : 0, directionChange: change, turnedPerAxis: turnedPerAxis,
                        turnedHorizontalX: turnedHorizontalX, turnedHorizontalY: turnedHorizontalY)
                }
            }
            hasAnchor = true
            directionChange = 0
            turned = 0
            if learning {
                turnedPerAxis = .zero
                turnedHorizontalX = 0
                turnedHorizontalY = 0
            }
        } else if hasAnchor {
            directionChange = clamped(
                directionChange &+ Self.angle(Int64(lastHorizontalX), Int64(lastHorizontalY), x, y), Self.limit)
        }
        lastHorizontalX = m.x.raw
        lastHorizontalY = m.y.raw
        return span
    }

    /// The angle from a to b (Q30 rad, counter-clockwise positive), 4(a × b)/|a + b|², clipped at
    /// ±π: the reference's `DeviceFixedFieldTest.angle`. Components < 2^27.8: |a × b| < 2^55.6,
    /// |a + b|² < 2^57.6; both shifted so the sum is < 2^31, then π·sum (Q29 · < 2^31 < 2^61.7)
    /// bounds 4·|cross|, and under it 4·|cross|·2^30 < π·2^61 fits. On the magnitude, so that
    /// a turn back is exactly the negation of the turn (the shift and the division truncate).
    @inlinable @inline(__always)
    public static func angle(_ ax: Int64, _ ay: Int64, _ bx: Int64, _ by: Int64) -> Int64 {
        let cross = ax &* by &- ay &* bx
        let (sx, sy) = (ax &+ bx, ay &+ by)
        var sum = UInt64(bitPattern: sx &* sx &+ sy &* sy)
        let shift = Swift.max(64 &- sum.leadingZeroBitCount &- 31, 0)
        sum &>>= UInt64(shift)
        let magnitude = cross.magnitude &>> UInt64(shift)
        let pi = UInt64(Q29.pi.raw)
        let angle = magnitude &<< 2 < (pi &* sum) &>> 29 ? Int64((magnitude &<< 32) / sum) : Int64(pi &<< 1)
        return cross < 0 ? 0 &- angle : angle
    }
}
