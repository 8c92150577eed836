import IMUFusion
import PropertyBased
import Testing

/// Properties over random inputs (swift-property-based; failures print a seed to replay).
@Suite("Fixed-point properties")
struct FixedPointPropertyTests {
    static let component = Gen.int32()
    static let unitComponent = Gen.double(in: -1...1)

    static func unitQuaternion(_ w: Double, _ x: Double, _ y: Double, _ z: Double) -> FixedQuaternion? {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        guard n > 1e-3 else { return nil }
        return FixedQuaternion(w: Q30(w / n), x: Q30(x / n), y: Q30(y / n), z: Q30(z / n))
    }

    @Test func normalizationKeepsTheNormWithinFourLSB() async {
        await propertyCheck(count: 500, input: Self.component, Self.component, Self.component, Self.component) { w, x, y, z in
            let q = FixedQuaternion(w: Q30(raw: w), x: Q30(raw: x), y: Q30(raw: y), z: Q30(raw: z))
            let normalized = q.normalized()
            #expect(squaredNormErrorInLSB(normalized) <= 4)
            // The same rotation: normalised components keep their signs and ratios.
            #expect((normalized.w.raw < 0) == (w < 0) || abs(normalized.w.raw) <= 1)
        }
    }

    @Test func rotateThenInverseRotateReturnsTheVectorWithinThreeLSB() async {
        let vectorComponent = Gen.double(in: -1600...1600)
        await propertyCheck(count: 500, input: Self.unitComponent, Self.unitComponent, Self.unitComponent, Self.unitComponent,
                            vectorComponent, vectorComponent, vectorComponent) { w, x, y, z, a, b, c in
            guard let q = Self.unitQuaternion(w, x, y, z) else { return }
            let v = FixedVector3(x: Q16(a), y: Q16(b), z: Q16(c))
            let back = q.inverseRotate(q.rotate(v))
            #expect(abs(back.x.raw - v.x.raw) <= 3 && abs(back.y.raw - v.y.raw) <= 3 && abs(back.z.raw - v.z.raw) <= 3,
                    "\(v) came back as \(back)")
            // Rotation keeps the length.
            #expect(abs(q.rotate(v).length.raw - v.length.raw) <= 3)
        }
    }

    @Test func productIsAssociativeWithinTwoLSB() async {
        let g = Self.unitComponent
        await propertyCheck(count: 300, input: zip(g, g, g, g), zip(g, g, g, g), zip(g, g, g, g)) { a, b, c in
            guard let p = Self.unitQuaternion(a.0, a.1, a.2, a.3), let q = Self.unitQuaternion(b.0, b.1, b.2, b.3),
                  let r = Self.unitQuaternion(c.0, c.1, c.2, c.3) else { return }
            let left = (p * q) * r, right = p * (q * r)
            for (u, v) in zip([left.w, left.x, left.y, left.z], [right.w, right.x, right.y, right.z]) {
                #expect(abs(u.raw - v.raw) <= 2)
            }
        }
    }

    @Test func fullScaleInputsSaturateInsteadOfWrapping() async {
        // Any Q16 sample, however extreme (past ±35 rad/s, ±16 g, ±1600 µT up to the format's
        // limit), and any time step: the rotation vector saturates per component, the update
        // stays a unit quaternion, and rotated samples keep their length up to saturation.
        await propertyCheck(count: 500, input: Self.component, Self.component, Self.component, Gen.int32(in: 0...Int32.max)) { x, y, z, dt in
            let rate = FixedVector3(x: Q16(raw: x), y: Q16(raw: y), z: Q16(raw: z))
            let step = FixedQuaternion(angularRate: rate, interval: Q30(raw: dt))
            // About one axis: the angle keeps its sign at any rate (it saturates at 4 rad).
            let angle = rate.x.doubleValue * Q30(raw: dt).doubleValue
            let aboutX = FixedQuaternion(angularRate: FixedVector3(x: rate.x, y: .zero, z: .zero), interval: Q30(raw: dt))
            if abs(angle) >= 1e-8 { #expect((aboutX.x.raw > 0) == (angle > 0), "\(angle) rad became \(aboutX)") }
            let attitude = (FixedQuaternion.identity * step).normalized()
            #expect(squaredNormErrorInLSB(attitude) <= 4)
            let rotated = attitude.rotate(rate)
            let exactLength = rate.length.doubleValue
            if exactLength < 30000 {
                // Rounding of the result (a few Q16 LSB) plus the Q30 matrix entries' own
                // rounding, which grows with the vector: a few × 2⁻³⁰ of its length.
                let bound = 4 / Q16.scale + 8 * exactLength / 1_073_741_824
                #expect(abs(rotated.length.doubleValue - exactLength) <= bound)
            }
        }
    }

    @Test func doubleConversionsRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.double(in: -32768...32767.99)) { value in
            let fixed = Q16(value)
            #expect(abs(fixed.doubleValue - value) <= 0.5 / Q16.scale)
            #expect(Q16(fixed.doubleValue) == fixed)
            let unit = value / 16384
            #expect(abs(Q30(unit).doubleValue - unit) <= 0.5 / Q30.scale)
            #expect(Q30(Q30(unit).doubleValue) == Q30(unit))
        }
    }
}
