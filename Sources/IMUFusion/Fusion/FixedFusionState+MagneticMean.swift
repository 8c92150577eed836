extension FixedFusionState {
    /// The magnetometer's samples since its last step (`magneticSum`, `magneticCount` ≥ 1) as
    /// one, at this sample: their mean turned forward by the rate (ω − b of this sample) over
    /// the mean's lag, clamped to ±2048 µT. The mean stands at the samples' mean time,
    /// (n − 1)/(2n)·magDt ago for n evenly spaced samples, the last one now; a field fixed in
    /// the world turns in device axes as dm/dt = −ω × m: m̄ turned by −θ, θ = (ω − b)·lag (to
    /// second order, as the reference's `update`). The lag is
    /// taken over at most 1/8 s of magDt. The reference's `FusionUpdate` does the same in Double.
    /// Inlined, and on the parts it reads: a method on the state took a copy of it (a memcpy).
    @inlinable @inline(__always)
    static func magneticMean(
        sum magneticSum: WideVector3, count samples: Int32, magDt: Int64, gyro lastGyro: FixedVector3<Q16>,
        negatedBiasQ26 bias: WideVector3
    ) -> FixedVector3<Q16> {
        // 1/n in Q30 (n < 2^30); the sums (< 2^61) times it through the wide product.
        let count = Int64(samples)
        let reciprocal = ((1 << 30) &+ count / 2) / count
        // The mean of samples as they came: |m̄| ≤ 2^31 raw per component.
        let (mx, my, mz) = (
            wideProduct(reciprocal, magneticSum.x), wideProduct(reciprocal, magneticSum.y),
            wideProduct(reciprocal, magneticSum.z))
        // lag = span·(n − 1)/(2n), Q30 s ≤ 2^26 (span ≤ 2^27, n − 1 < 2^30: the product < 2^57).
        let lag = wideProduct(reciprocal, Swift.min(magDt, 1 << 27) &* (count &- 1)) &>> 1
        // θ = (ω − b)·lag: the rate in Q26 (|ω − b| < 2^32.05 raw, as in the gyro step) times
        // lag (≤ 2^26) < 2^58.05, to Q20 rad (|θ| ≤ 4.25 rad per component < 2^22.1).
        @inline(__always) func turn(_ rate: Q16, _ negatedBias: Int64) -> Int64 {
            roundingShiftRight(((Int64(rate.raw) &<< 10) &+ negatedBias) &* lag, by: 36)
        }
        let (tx, ty, tz) = (turn(lastGyro.x, bias.x), turn(lastGyro.y, bias.y), turn(lastGyro.z, bias.z))
        // m̄ turned by −θ, to second order: m̄ − θ × m̄ + ½ θ × (θ × m̄) (the rotation by the
        // quaternion (1, −θ/2), unnormalised: its scale 1 + θ²/4 offsets the mean's shrinking as
        // the samples turn). θ × m̄: products < 2^22.1 · 2^31, differences < 2^54.1, Q36 → Q16
        // < 2^34.1; θ × (θ × m̄) < 2^57.2, Q36 → Q16 and halved.
        let (cx, cy, cz) = (
            roundingShiftRight(ty &* mz &- tz &* my, by: 20), roundingShiftRight(tz &* mx &- tx &* mz, by: 20),
            roundingShiftRight(tx &* my &- ty &* mx, by: 20))
        // The turned mean < 2^36.5, clamped to ±2048 µT (beyond every sensor's full scale).
        @inline(__always) func q16(_ m: Int64, _ c: Int64, _ secondQ36: Int64) -> Q16 {
            Q16(raw: Int32(clamped(m &- c &+ roundingShiftRight(secondQ36, by: 21), 2048 << 16)))
        }
        return FixedVector3(
            x: q16(mx, cx, ty &* cz &- tz &* cy), y: q16(my, cy, tz &* cx &- tx &* cz), z: q16(mz, cz, tx &* cy &- ty &* cx))
    }
}
