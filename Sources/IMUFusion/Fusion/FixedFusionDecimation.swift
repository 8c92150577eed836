/// What the decimated parts (rest test, inclination correction, in-motion bias; see the
/// reference) need from the samples between their runs, summed per sample: the only per-sample
/// work they cost. Every `FixedFusionGains.biasDecimation`-th sample (from the first: during
/// the warm-up too, their low-passes then averaging span by span) they run on these sums,
/// which then start again from zero.
///
/// The rate and the acceleration are summed as they come (Q16.16, no shift per sample) and
/// widened on the decimated sample (`gyroSumWide`, `forceSumWide`: the same integers as sums
/// of widened samples). The acceleration is summed per force group (`groupAccelSumQ16`), which
/// adds into `accelSumQ16` when it ends: the same sums, three additions per sample instead of
/// three and the samples kept in registers (spilt) until the group's end. Sums of ≤ 16 clamped samples (Q40: |rate| ≤ 2^46, |force| ≤ 2^45)
/// stay far inside Int64; as Q16.16 (|rate| ≤ 16 · 2^22 = 2^26, |force| ≤ 2^25) inside
/// Int32, so they are kept there (`RawSampleSum`): no sign extension per sample.
public struct FixedFusionDecimation: Sendable, Equatable {
    /// Samples still to sum before the decimated parts run: `FixedFusionGains.biasDecimation`
    /// minus the samples summed (0: they run on this sample). Counted down, so that the
    /// per-sample test is one decrement of memory and a branch on zero (`decl; je`: a test of
    /// the sign took a load, a store and a `test` more); when the gains change, it moves by the
    /// change of biasDecimation (`fixedFusionRefreshGains`), which keeps it that difference, but
    /// not below 1: the samples summed beyond the new biasDecimation go to `excessSamples`.
    /// Starts at 1: the default gains' biasDecimation, no sample summed.
    public var remaining: Int32 = 1
    /// The time they span (Q30 s).
    public var span: Int64 = 0
    /// The raw rate (Q16.16 rad/s, bias included) and the acceleration (Q16.16 g, Core Motion
    /// sign: minus the specific force), device frame, summed: the rest test's inputs. The
    /// acceleration of the groups ended so far (see `groupAccelSumQ16`).
    public var gyroSumQ16 = RawSampleSum()
    public var accelSumQ16 = RawSampleSum()
    /// The specific force rotated into the almost-inertial frame (Q40 g), less the specific
    /// force itself (`FixedQuaternion.rotationChangeWide`): with `forceSumWide` added once per
    /// run, the inclination correction's input (the same integers as summing the rotated
    /// forces). In groups of `FixedFusionGains.forceGroupLength` samples (3 at
    /// biasDecimation 16): their sum rotated by the middle one's attitude, a group cut short
    /// by the decimated sample by its last one's (the reference's `InclinationCorrection`
    /// says what that costs in accuracy).
    public var inertialForceSum = WideVector3.zero
    /// The current group's samples so far, its middle attitude, and its acceleration summed.
    public var groupPhase: Int32 = 0
    public var groupAttitude = FixedQuaternion.identity
    public var groupAccelSumQ16 = RawSampleSum()
    /// Samples summed beyond biasDecimation: set only when new gains shorten the decimation
    /// below the samples already summed (the parts then run on that sample), else 0.
    public var excessSamples: Int32 = 0

    @inlinable public init() {}

    /// No samples summed yet, `biasDecimation` of them to come.
    @inlinable
    init(remaining: Int32) { self.remaining = remaining }

    /// Σ rate as Q40 rad/s.
    @inlinable @inline(__always)
    var gyroSumWide: WideVector3 {
        WideVector3(x: Int64(gyroSumQ16.x) &<< 24, y: Int64(gyroSumQ16.y) &<< 24, z: Int64(gyroSumQ16.z) &<< 24)
    }
    /// Σ specific force (−acceleration) as Q40 g.
    @inlinable @inline(__always)
    var forceSumWide: WideVector3 {
        WideVector3(
            x: 0 &- (Int64(accelSumQ16.x) &<< 24), y: 0 &- (Int64(accelSumQ16.y) &<< 24),
            z: 0 &- (Int64(accelSumQ16.z) &<< 24))
    }

    /// The group ends with this sample: its force sum, rotated by `attitude`, into the
    /// almost-inertial frame. A group sums ≤ 3 clamped samples (|components| ≤ 3 · 2^21 in
    /// Q16.16, |Σf| < 2^23.4), inside `rotationChangeWide`'s range (see there).
    @inlinable @inline(__always)
    mutating func endGroup(attitude: FixedQuaternion) {
        let group = groupAccelSumQ16
        let force = FixedVector3(x: Q16(raw: group.x), y: Q16(raw: group.y), z: Q16(raw: group.z))
        accelSumQ16.x &+= group.x
        accelSumQ16.y &+= group.y
        accelSumQ16.z &+= group.z
        groupAccelSumQ16 = RawSampleSum()
        groupPhase = 0
        inertialForceSum = inertialForceSum + attitude.rotationChangeWide(specificForceOf: force)
    }

    /// The mean of a sum over `count` samples, rounded (a shift for the usual counts of 16 and 8).
    @inlinable @inline(__always)
    func mean(_ sum: WideVector3, count: Int32) -> WideVector3 {
        let n = Int64(count)
        @inline(__always) func m(_ x: Int64) -> Int64 {
            n == 16 ? roundingShiftRight(x, by: 4) : n == 8 ? roundingShiftRight(x, by: 3) : n == 1 ? x : (x &+ n / 2) / n
        }
        return WideVector3(x: m(sum.x), y: m(sum.y), z: m(sum.z))
    }
}

/// A sum of ≤ 16 clamped Q16.16 samples, raw (see `FixedFusionDecimation`): |components| ≤
/// 16 · 2^22 = 2^26, so the wrapping Int32 sums never wrap.
public struct RawSampleSum: Sendable, Equatable {
    public var x: Int32 = 0
    public var y: Int32 = 0
    public var z: Int32 = 0

    @inlinable public init() {}

    @inlinable @inline(__always)
    mutating func add(_ v: FixedVector3<Q16>) {
        x &+= v.x.raw
        y &+= v.y.raw
        z &+= v.z.raw
    }
}
