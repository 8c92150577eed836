import IMUFusion
import Testing

/// The decimated parts' countdown (`FixedFusionDecimation.remaining`) when the sample rate
/// changes the decimation in mid-span.
@Suite struct FixedFusionDecimationTests {
    /// 12 samples summed at 300 Hz (N = 16), then one at 200 Hz (N = 8): the new decimation is
    /// shorter than what is already summed, so the parts run on that sample, on the mean of all
    /// 13. A constant rate makes that mean exact: the rest test's rate reference (a running mean
    /// while the filter is young) must hold the rate itself, not 13/8 of it.
    @Test func shorterDecimationRunsThePartsOnEverySampleSummed() {
        let c = FixedFusionCoefficients()
        var s = FixedFusionState(coefficients: c)
        let rate = FixedVector3(x: Q16(raw: 32_768), y: Q16(raw: -16_384), z: Q16(raw: 8_192))  // 0.5, −0.25, 0.125 rad/s
        let accel = FixedVector3(x: Q16.zero, y: .zero, z: Q16(raw: -65_536))
        let at300Hz = Q30(raw: 3_579_139), at200Hz = Q30(raw: 5_368_709)
        for _ in 0..<(16 + 12) {
            fixedFusionUpdate(state: &s, coefficients: c, gyro: rate, accel: accel, mag: nil, dt: at300Hz)
        }
        #expect(s.gains.biasDecimation == 16 && s.decimation.remaining == 4)
        fixedFusionUpdate(state: &s, coefficients: c, gyro: rate, accel: accel, mag: nil, dt: at200Hz)
        #expect(s.gains.biasDecimation == 8)
        #expect(s.decimation.span == 0, "the parts ran on this sample")
        #expect(s.decimation.remaining == 8)
        let expected = WideVector3(x: Int64(rate.x.raw) << 24, y: Int64(rate.y.raw) << 24, z: Int64(rate.z.raw) << 24)
        #expect(s.rest.gyroReference.stage2 == expected)
        // And the countdown goes on at N = 8.
        for _ in 0..<7 {
            fixedFusionUpdate(state: &s, coefficients: c, gyro: rate, accel: accel, mag: nil, dt: at200Hz)
        }
        #expect(s.decimation.remaining == 1 && s.decimation.span != 0)
        fixedFusionUpdate(state: &s, coefficients: c, gyro: rate, accel: accel, mag: nil, dt: at200Hz)
        #expect(s.decimation.remaining == 8 && s.decimation.span == 0)
        #expect(s.rest.gyroReference.stage2 == expected)
    }
}
