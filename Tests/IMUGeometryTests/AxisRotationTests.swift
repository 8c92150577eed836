import Testing
@testable import IMUGeometry

@Suite struct AxisRotationTests {
    @Test func thereAreExactly24ProperRotations() {
        #expect(AxisRotation.all.count == 24)
        #expect(Set(AxisRotation.all).count == 24)
        for r in AxisRotation.all { #expect(r.matrix.determinant == 1) }
    }

    @Test func mirrorsAndRepeatedAxesAreRefused() {
        #expect(AxisRotation(["-x", "+y", "+z"]) == nil)
        #expect(AxisRotation(["+x", "+x", "+z"]) == nil)
        #expect(AxisRotation(["+x", "+y"]) == nil)
        #expect(AxisRotation(["x", "+y", "+z"]) == nil)
    }

    @Test func aQuarterTurnAboutZMovesXOntoY() {
        let r = AxisRotation(["+y", "-x", "+z"])!
        #expect(r.apply(Vector3(1, 0, 0)) == Vector3(0, 1, 0))
        #expect(r.apply(Vector3(0, 1, 0)) == Vector3(-1, 0, 0))
        #expect(r.axisNames == ["+y", "-x", "+z"])
    }

    @Test func inverseUndoesEveryRotation() {
        let v = Vector3(0.25, -2, 7)
        for r in AxisRotation.all {
            #expect(r.inverse.apply(r.apply(v)) == v)
            #expect(r.matrix * v == r.apply(v))
        }
    }
}

@Suite struct QuaternionTests {
    @Test func quaternionAndMatrixAgree() {
        let q = Quaternion(axis: Vector3(1, 2, 3), angle: 0.7)
        let v = Vector3(0.3, -0.4, 0.5)
        let a = q.rotate(v), b = q.rotationMatrix * v
        #expect((a - b).length < 1e-12)
    }

    @Test func productComposesRotations() {
        let a = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)
        let b = Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2)
        let v = Vector3(0, 1, 0)
        #expect(((a * b).rotate(v) - a.rotate(b.rotate(v))).length < 1e-12)
        #expect((a.rotate(Vector3(1, 0, 0)) - Vector3(0, 1, 0)).length < 1e-12)
    }
}
