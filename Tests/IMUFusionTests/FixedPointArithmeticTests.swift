import IMUFusion
import PropertyBased
import Testing

@Suite("Fixed-point arithmetic: rounding, saturation, conversions")
struct FixedPointArithmeticTests {
    @Test func multiplicationRoundsHalfUp() {
        // 3 LSB × 0.5 = 1.5 LSB → 2 (half up); −3 LSB × 0.5 = −1.5 LSB → −1 (half up, towards +∞).
        #expect((Q30(raw: 3) * .half).raw == 2)
        #expect((Q30(raw: -3) * .half).raw == -1)
        #expect((Q30(raw: 5) * Q30(raw: 1 << 28)).raw == 1)  // 1.25 → 1
        #expect((Q30.one * .one) == .one)
        #expect((Q16(2.5) * Q16(-4)).doubleValue == -10)
    }

    @Test func additionAndMultiplicationSaturate() {
        #expect(Q30.max + Q30(raw: 1) == .max)
        #expect(Q30.min - Q30(raw: 1) == .min)
        #expect(Q30(1.5) + Q30(1.5) == .max)
        #expect(Q30(-1.5) * Q30(1.5) == .min)
        #expect(Q30.min * .min == .max)
        #expect(-Q30.min == .max)
        #expect(Q16.max * Q16(2) == .max)
        #expect(Q16.max.multiplied(by: Q30(-1.999)) == .min)
        #expect(Q16(1000).multiplied(by: Q30(-1.5)) == Q16(-1500))
        // The wrapping forms wrap.
        #expect((Q30.max &+ Q30(raw: 1)) == .min)
    }

    @Test func shiftsMagnitudeAndWrappingProduct() {
        #expect(Q16(3).scaled(byPowerOfTwo: 2) == Q16(12))
        #expect(Q16(3).scaled(byPowerOfTwo: -1) == Q16(1.5))
        #expect(Q16(raw: 3).scaled(byPowerOfTwo: -1) == Q16(raw: 2))  // 1.5 LSB rounds half up
        #expect(Q16(20000).scaled(byPowerOfTwo: 1) == .max)
        #expect(Q16(-20000).scaled(byPowerOfTwo: 40) == .min)
        #expect(Q16(raw: -5).scaled(byPowerOfTwo: -70) == .zero)
        #expect(Q30(-0.25).magnitude == Q30(0.25))
        #expect(Q30.min.magnitude == .max)
        #expect((Q30(0.5) &* Q30(-0.5)) == Q30(-0.25))
        #expect((Q30(1.5) &* Q30(1.5)).raw == Int32(truncatingIfNeeded: Int64(2.25 * 1_073_741_824)))  // wraps
        var accumulator = Q16(1)
        accumulator += Q16(2)
        accumulator -= Q16(0.5)
        accumulator *= Q16(2)
        #expect(accumulator == Q16(5))
    }

    @Test func formatConversionsRoundAndSaturate() {
        #expect(Q30(Q16(1.25)) == Q30(1.25))
        #expect(Q30(Q16(3)) == .max)
        #expect(Q30(Q16(-3)) == .min)
        #expect(Q16(Q30(raw: 1 << 13)) == Q16(raw: 1))  // ½ LSB of Q16 rounds up
        #expect(Q16(Q30(raw: (1 << 13) - 1)) == .zero)
        #expect(Q29(Q30(1.75)) == Q29(1.75))
        #expect(Q16(integer: 40000) == .max)
        #expect(Q16(integer: -5) == Q16(-5))
    }

    @Test func doubleConversionSaturatesAndRounds() {
        #expect(Q30(2.0) == .max)
        #expect(Q30(-2.0) == .min)
        #expect(Q30(-3.0) == .min)
        #expect(Q30(Double.nan) == .zero)
        #expect(Q30(Double.infinity) == .max)
        #expect(Q16(1e9) == .max)
        #expect(Q30(0.5 / Q30.scale).raw == 1)  // ties away from zero
    }

    @Test func doubleRoundTripIsExactAndWithinHalfLSB() async {
        // Every fixed value converts to Double exactly and back to itself.
        await propertyCheck(count: 300, input: Gen.int32()) { raw in
            #expect(Q30(Q30(raw: raw).doubleValue).raw == raw)
            #expect(Q16(Q16(raw: raw).doubleValue).raw == raw)
            #expect(Q29(Q29(raw: raw).doubleValue).raw == raw)
        }
        // A Double in range lands within ½ LSB.
        await propertyCheck(count: 300, input: Gen.double(in: -1.999...1.999)) { value in
            #expect(errorInLSB(Q30(value), value) <= 0.5)
            #expect(errorInLSB(Q16(value * 16000), value * 16000) <= 0.5)
        }
    }

    @Test func fullScaleSensorValuesSaturateInsteadOfWrapping() async {
        // Gyro ±35 rad/s, accel ±16 g, field ±1600 µT and anything up to the format's limits:
        // sums, products, gains and rotations of extreme values keep their sign.
        let extremes: [Q16] = [.max, .min, Q16(35), Q16(-35), Q16(16), Q16(-16), Q16(1600), Q16(-1600)]
        await propertyCheck(count: 200, input: Gen.int(in: 0...7), Gen.int(in: 0...7), Gen.int32()) { i, j, raw in
            let a = extremes[i], b = extremes[j], c = Q16(raw: raw)
            let exactSum = a.doubleValue + b.doubleValue
            let exactProduct = a.doubleValue * c.doubleValue
            #expect((a + b).doubleValue == Swift.min(Swift.max(exactSum, Q16.min.doubleValue), Q16.max.doubleValue))
            #expect((a - b).doubleValue == Swift.min(Swift.max(a.doubleValue - b.doubleValue, Q16.min.doubleValue), Q16.max.doubleValue))
            let product = (a * c).doubleValue
            if exactProduct >= Q16.max.doubleValue { #expect(a * c == .max) }
            else if exactProduct <= Q16.min.doubleValue { #expect(a * c == .min) }
            else { #expect(abs(product - exactProduct) <= 0.5 / Q16.scale) }
            let v = FixedVector3(x: a, y: b, z: a)
            let dot = v.dot(v)
            #expect(dot.raw >= 0)  // a sum of squares never wraps negative
            let cross = v.cross(FixedVector3(x: b, y: a, z: c))
            let exactCrossZ = a.doubleValue * a.doubleValue - b.doubleValue * b.doubleValue
            #expect((cross.z.raw >= 0) == (exactCrossZ >= 0) || exactCrossZ == 0)
        }
    }

    @Test func fullScaleRatesGiveSaturatedNotWrappedRotationVectors() {
        // ω = Q16.max rad/s for 100 ms: each component of θ saturates at +4 rad instead of wrapping.
        let fastest = FixedVector3(x: Q16.max, y: Q16.min, z: Q16(35))
        let q = FixedQuaternion(angularRate: fastest, interval: Q30(0.1))
        let normalized = q.normalized()
        #expect(squaredNormErrorInLSB(normalized) <= 4)
        // The axis keeps its signs: +x, −y.
        #expect(normalized.x.raw > 0 && normalized.y.raw < 0)
        // 2000 °/s at 10 ms is 0.35 rad: exact.
        let maxGyro = FixedQuaternion(angularRate: FixedVector3(x: Q16(35), y: .zero, z: .zero), interval: Q30(0.01))
        #expect(errorInLSB(maxGyro.w, Math.cos(0.175)) <= 2)
    }
}

