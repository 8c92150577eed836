/// What the decimated parts (rest test, inclination correction, in-motion bias; see the
/// reference) need from the samples between their runs, summed per sample: the only per-sample
/// work they cost. Every `FixedFusionGains.biasDecimation`-th sample (from the first: during
/// the warm-up too, their low-passes then averaging span by span) they run on these sums,
/// which then start again from zero.
///
/// Sums of ≤ 16 clamped samples (Q40: |rate| ≤ 2^46, |force| ≤ 2^45) stay far inside Int64.
public struct FixedFusionDecimation: Sendable, Equatable {
    /// Samples summed.
    public var count: Int32 = 0
    /// The time they span (Q30 s).
    public var span: Int64 = 0
    /// The raw rate (Q40 rad/s, bias included) and the specific force (Q40 g), device frame:
    /// the rest test's inputs.
    public var gyroSum = WideVector3.zero
    public var forceSum = WideVector3.zero
    /// The specific force rotated into the almost-inertial frame (Q40 g): the inclination
    /// correction's input.
    public var inertialForceSum = WideVector3.zero

    @inlinable public init() {}

    /// The mean of a sum over `count` samples, rounded (a shift for the usual counts of 16 and 8).
    @inlinable @inline(__always)
    func mean(_ sum: WideVector3) -> WideVector3 {
        let n = Int64(count)
        @inline(__always) func m(_ x: Int64) -> Int64 {
            n == 16 ? roundingShiftRight(x, by: 4) : n == 8 ? roundingShiftRight(x, by: 3) : n == 1 ? x : (x &+ n / 2) / n
        }
        return WideVector3(x: m(sum.x), y: m(sum.y), z: m(sum.z))
    }
}
