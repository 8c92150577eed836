@testable import IMUFusion
import Testing

/// The gyro step's fast path (`fixedFusionUpdate` takes it for |h|² ≤ 2⁻⁹ on one compare,
/// without the saturation of |h|²) must give the general step's integers, and the general step
/// must call such steps normalised: the two paths are written apart, so this pins them together.
@Suite("The fixed-point gyro step: fast path and general path")
struct FixedGyroStepTests {
    /// θ's raw Q29 integers with |h|² (Q30) near `limit`, the fast path's bound.
    private func components(_ rng: inout SplitMix64, squaredNear limit: Double) -> (Int64, Int64, Int64) {
        // A random direction, scaled so that |h|² (Q30, h = θ/2 has θ's raw integers) lands
        // anywhere in [0, 1.05 · limit].
        let x = Double(rng.next() % 2_000_001) / 1_000_000 - 1
        let y = Double(rng.next() % 2_000_001) / 1_000_000 - 1
        let z = Double(rng.next() % 2_000_001) / 1_000_000 - 1
        let norm = max((x * x + y * y + z * z).squareRoot(), 1e-9)
        let length = (Double(rng.next() % 1_000_001) / 1_000_000 * 1.05 * limit / 1_073_741_824).squareRoot()
        let scale = length / norm * 1_073_741_824
        return (Int64(x * scale), Int64(y * scale), Int64(z * scale))
    }

    @Test func fastPathGivesTheGeneralStepsIntegers() {
        var rng = SplitMix64(seed: 28)
        let limit = FixedQuaternion.normalisedStepLimit
        var fast = 0, general = 0
        for _ in 0..<200_000 {
            let (hx, hy, hz) = components(&rng, squaredNear: Double(limit))
            let reference = FixedQuaternion.integrationStepRaw(hx, hy, hz)
            let squared = FixedQuaternion.squaredHalfAngleQ30(hx, hy, hz)
            if squared <= UInt64(limit) {
                fast += 1
                let step = FixedQuaternion.integrationStepRaw(hx, hy, hz, squaredHalfAngle: Int64(squared))
                #expect(reference.isUnit && reference.isNormalised, "θ/2 = (\(hx), \(hy), \(hz))")
                #expect(
                    step.w == reference.w && step.x == reference.x && step.y == reference.y && step.z == reference.z,
                    "θ/2 = (\(hx), \(hy), \(hz))")
            } else {
                general += 1
                #expect(!reference.isNormalised, "θ/2 = (\(hx), \(hy), \(hz))")
            }
        }
        // Both sides of the bound were exercised.
        #expect(fast > 150_000 && general > 5_000, "fast \(fast), general \(general)")
    }
}
