// Embedded Swift emits machine code for a generic function only where it is used with concrete
// types, so a library of generic fixed-point operations compiles to almost nothing on its own —
// and Scripts/check-embedded.sh would have nothing to inspect. This file, compiled only for
// Embedded, uses every generic operation in the formats the filter uses, so the firmware
// object contains them and the soft-float check covers them.
#if hasFeature(Embedded)

/// Concrete instances of the generic fixed-point operations, for the firmware build (and the
/// soft-float check); also usable from firmware code that wants a non-generic entry point.
public enum EmbeddedInstantiations {
    public static func arithmetic<Fixed: FixedPointNumber>(_ a: Fixed, _ b: Fixed, _ gain: Q30) -> Fixed {
        let sum = (a + b) &+ (a - b) &- -a
        let product = (a * b) &+ (a &* b)
        return (sum + product).multiplied(by: gain).scaled(byPowerOfTwo: Int(b.raw & 7) - 4)
    }

    public static func functions<Fixed: FixedPointNumber>(_ a: Fixed, _ b: Fixed) -> (Fixed, Fixed, Fixed, Q29) {
        (FixedMath.reciprocalSquareRoot(a), FixedMath.squareRoot(b), FixedMath.divide(a, by: b),
         FixedMath.atan2(y: a, x: b))
    }

    public static func vectors<Fixed: FixedPointNumber>(
        _ u: FixedVector3<Fixed>, _ v: FixedVector3<Fixed>, _ q: FixedQuaternion, _ gain: Q30
    ) -> (FixedVector3<Fixed>, Fixed, Fixed, FixedVector3<Q30>?) {
        let sum = (u + v - -u) * u.x
        let turned = q.rotate(sum.cross(v)) + q.inverseRotate(u).multiplied(by: gain)
        return (turned, u.dot(v), u.length, v.direction)
    }

    public static func q30(_ a: Q30, _ b: Q30, _ q: FixedQuaternion) -> (Q30, Q30, Q30, Q29, FixedVector3<Q30>, EmbeddedVectorResults<Q30>) {
        let (r, s, d, angle) = functions(a, b)
        let v = FixedVector3(x: a, y: b, z: r)
        return (arithmetic(a, b, s), r, d, angle, v, EmbeddedVectorResults(vectors(v, v, q, a)))
    }

    public static func q29(_ a: Q29, _ b: Q29, _ q: FixedQuaternion) -> (Q29, Q29, Q29, Q29, EmbeddedVectorResults<Q29>) {
        let (r, s, d, angle) = functions(a, b)
        let v = FixedVector3(x: a, y: b, z: r)
        return (arithmetic(a, b, Q30(s)), r, d, angle, EmbeddedVectorResults(vectors(v, v, q, Q30(a))))
    }

    public static func q16(_ a: Q16, _ b: Q16, _ q: FixedQuaternion) -> (Q16, Q16, Q16, Q29, EmbeddedVectorResults<Q16>) {
        let (r, s, d, angle) = functions(a, b)
        let v = FixedVector3(x: a, y: b, z: r)
        return (arithmetic(a, b, Q30(s)), r, d, angle, EmbeddedVectorResults(vectors(v, v, q, Q30(a))))
    }

    public static func conversions(_ a: Q16, _ b: Q30, _ c: Q29) -> (Q16, Q30, Q29, FixedVector3<Q30>) {
        (Q16(b), Q30(c), Q29(a), FixedVector3<Q30>(FixedVector3(x: a, y: a, z: a)))
    }
}

/// The results of `EmbeddedInstantiations.vectors`, named.
public struct EmbeddedVectorResults<Fixed: FixedPointNumber> {
    public var turned: FixedVector3<Fixed>
    public var dot: Fixed
    public var length: Fixed
    public var direction: FixedVector3<Q30>?

    init(_ results: (FixedVector3<Fixed>, Fixed, Fixed, FixedVector3<Q30>?)) {
        (turned, dot, length, direction) = results
    }
}

#endif
