import IMUFusion
import Testing

/// Each function against Double over its whole domain: random arguments spread over every
/// binade (log-uniform) or the full raw range, plus the edges. The bounds asserted are the
/// accuracies the doc comments promise.
@Suite("Fixed-point functions against Double")
struct FixedMathTests {
    /// Log-uniform positive raw values from 1 to Int32.max, and the edges.
    static func positiveRaws(_ count: Int, seed: UInt64) -> [Int32] {
        var rng = SplitMix64(seed: seed)
        var values: [Int32] = [1, 2, 3, 1 << 28, (1 << 28) + 1, 1 << 29, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, .max - 1, .max]
        for _ in 0..<count {
            let bits = Int.random(in: 0...30, using: &rng)
            values.append(Int32(UInt32.random(in: 0..<(UInt32(1) << bits), using: &rng) | (UInt32(1) << bits)))
        }
        return values
    }

    @Test func reciprocalSquareRootIsWithinTwoLSB() {
        var worstQ30 = 0.0, worstQ16 = 0.0
        for raw in Self.positiveRaws(10000, seed: 1) {
            let exact = 1 / Q30(raw: raw).doubleValue.squareRoot()
            let result = FixedMath.reciprocalSquareRoot(Q30(raw: raw))
            if exact < Q30.max.doubleValue { worstQ30 = max(worstQ30, errorInLSB(result, exact)) }
            else { #expect(result == .max) }
            let exact16 = 1 / Q16(raw: raw).doubleValue.squareRoot()
            worstQ16 = max(worstQ16, errorInLSB(FixedMath.reciprocalSquareRoot(Q16(raw: raw)), exact16))
            let exact29 = 1 / Q29(raw: raw).doubleValue.squareRoot()
            if exact29 < Q29.max.doubleValue {
                worstQ30 = max(worstQ30, errorInLSB(FixedMath.reciprocalSquareRoot(Q29(raw: raw)), exact29))
            }
        }
        #expect(worstQ30 <= 2, "worst 1/√x error \(worstQ30) LSB (Q30/Q29)")
        #expect(worstQ16 <= 1, "worst 1/√x error \(worstQ16) LSB (Q16)")
        #expect(FixedMath.reciprocalSquareRoot(Q30.one) == .one)
        #expect(FixedMath.reciprocalSquareRoot(Q30.zero) == .max)
        #expect(FixedMath.reciprocalSquareRoot(Q30(-0.5)) == .max)
    }

    @Test func squareRootIsWithinOneLSB() {
        var worst = 0.0
        for raw in Self.positiveRaws(10000, seed: 2) {
            worst = max(worst, errorInLSB(FixedMath.squareRoot(Q30(raw: raw)), Q30(raw: raw).doubleValue.squareRoot()))
            worst = max(worst, errorInLSB(FixedMath.squareRoot(Q16(raw: raw)), Q16(raw: raw).doubleValue.squareRoot()))
            worst = max(worst, errorInLSB(FixedMath.squareRoot(Q29(raw: raw)), Q29(raw: raw).doubleValue.squareRoot()))
        }
        #expect(worst <= 1, "worst √x error \(worst) LSB")
        #expect(FixedMath.squareRoot(Q30.one) == .one)
        #expect(FixedMath.squareRoot(Q16(4)) == Q16(2))
        #expect(FixedMath.squareRoot(Q30.zero) == .zero)
        #expect(FixedMath.squareRoot(Q30(-1)) == .zero)
    }

    @Test func vectorLengthIsWithinOneAndAHalfAndDirectionWithinTwoLSB() {
        var rng = SplitMix64(seed: 3)
        var worstLength = 0.0, worstDirection = 0.0
        for _ in 0..<5000 {
            // Magnitudes from 10⁻³ to full scale, e.g. a magnetometer in µT or an accelerometer in g.
            let magnitude = Double(sign: .plus, exponent: Int.random(in: -10...14, using: &rng), significand: 1)
            let c = (0..<3).map { _ in Double.random(in: -1...1, using: &rng) * magnitude }
            let v = FixedVector3(x: Q16(c[0]), y: Q16(c[1]), z: Q16(c[2]))
            let (x, y, z) = (v.x.doubleValue, v.y.doubleValue, v.z.doubleValue)
            let length = (x * x + y * y + z * z).squareRoot()
            guard length > 0 else { continue }
            worstLength = max(worstLength, errorInLSB(v.length, length))
            let direction = try! #require(v.direction)
            worstDirection = max(worstDirection, errorInLSB(direction.x, x / length),
                                 errorInLSB(direction.y, y / length), errorInLSB(direction.z, z / length))
        }
        #expect(worstLength <= 1.5, "worst length error \(worstLength) LSB")
        #expect(worstDirection <= 2, "worst direction error \(worstDirection) LSB")
        #expect(FixedVector3<Q16>.zero.direction == nil)
        #expect(FixedVector3(x: Q16.max, y: .max, z: .min).length == .max)
    }

    @Test func atan2IsWithinEightLSBEverywhere() {
        var rng = SplitMix64(seed: 4)
        var cases: [(Int32, Int32)] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1), (.max, .max),
                                        (.min, .min), (.min, .max), (.max, .min), (0, .min), (.min, 0), (1, .max)]
        for _ in 0..<10000 {
            // Full-range and small coordinates, so every octant and ratio is covered.
            let bits = Int.random(in: 0...31, using: &rng)
            let limit = Int32(truncatingIfNeeded: (Int64(1) << bits) - 1)
            cases.append((Int32.random(in: -limit...limit, using: &rng), Int32.random(in: -limit...limit, using: &rng)))
        }
        var worst = 0.0
        for (y, x) in cases where x != 0 || y != 0 {
            let exact = Math.atan2(Double(y), Double(x))
            worst = max(worst, errorInLSB(FixedMath.atan2(y: Q16(raw: y), x: Q16(raw: x)), exact))
        }
        #expect(worst <= 8, "worst atan2 error \(worst) LSB of Q29 (\(worst / Q29.scale * 180 / Double.pi)°)")
        #expect(FixedMath.atan2(y: Q30.zero, x: .zero) == .zero)
        #expect(FixedMath.atan2(y: Q30.zero, x: Q30(-1)) == .pi)
        #expect(FixedMath.atan2(y: Q30(1), x: .zero) == .halfPi)
    }

    @Test func sinAndCosAreWithinTwoLSBEverywhere() {
        var rng = SplitMix64(seed: 5)
        var angles: [Int32] = [0, 1, -1, .max, .min, Q29.pi.raw, -Q29.pi.raw, Q29.halfPi.raw, -Q29.halfPi.raw]
        for _ in 0..<10000 { angles.append(Int32.random(in: .min ... .max, using: &rng)) }
        var worst = 0.0
        for raw in angles {
            let angle = Q29(raw: raw)
            let result = FixedMath.sinCos(angle)
            worst = max(worst, errorInLSB(result.sin, Math.sin(angle.doubleValue)),
                        errorInLSB(result.cos, Math.cos(angle.doubleValue)))
        }
        #expect(worst <= 2, "worst sin/cos error \(worst) LSB")
        #expect(FixedMath.cos(.zero) == .one)
        #expect(FixedMath.sin(.zero) == .zero)
    }

    @Test func divisionIsCorrectlyRoundedAndSaturates() {
        var rng = SplitMix64(seed: 6)
        var worst = 0.0
        for _ in 0..<10000 {
            let a = Q30(raw: Int32.random(in: .min ... .max, using: &rng))
            let b = Q30(raw: Int32.random(in: .min ... .max, using: &rng))
            guard b.raw != 0 else { continue }
            let exact = a.doubleValue / b.doubleValue
            let result = FixedMath.divide(a, by: b)
            if exact >= Q30.max.doubleValue { #expect(result == .max) }
            else if exact <= Q30.min.doubleValue { #expect(result == .min) }
            else { worst = max(worst, errorInLSB(result, exact)) }
        }
        #expect(worst <= 0.5 + 1e-6, "worst division error \(worst) LSB")
        #expect(FixedMath.divide(Q16(1), by: Q16(3)) == Q16(1.0 / 3))
        #expect(FixedMath.divide(Q16(1), by: .zero) == .max)
        #expect(FixedMath.divide(Q16(-1), by: .zero) == .min)
        #expect(FixedMath.divide(Q16.zero, by: .zero) == .zero)
    }
}
