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

    /// The numeric form (what chip tables use, so the firmware needs no text handling) names the
    /// same rotation as the board files' words, and refuses what they refuse.
    @Test func numbersAndWordsNameTheSameRotations() {
        let names = ["x", "y", "z"]
        for rotation in AxisRotation.all {
            // For each source axis, the target axis it points along (the inverse's permutation).
            var targets = [0, 0, 0], words = ["", "", ""]
            for target in 0..<3 {
                let source = [rotation.sourceAxis.0, rotation.sourceAxis.1, rotation.sourceAxis.2][target]
                let sign = [rotation.sign.0, rotation.sign.1, rotation.sign.2][target]
                targets[source] = sign > 0 ? target + 1 : -(target + 1)
                words[source] = (sign > 0 ? "+" : "-") + names[target]
            }
            #expect(AxisRotation(signedTargets: (targets[0], targets[1], targets[2])) == rotation)
            #expect(AxisRotation(words) == rotation)
        }
        #expect(AxisRotation(signedTargets: (2, 1, -3)) == AxisRotation(["+y", "+x", "-z"]))
        #expect(AxisRotation(signedTargets: (-1, 2, 3)) == nil)  // a mirror
        #expect(AxisRotation(signedTargets: (1, 1, 3)) == nil)
        #expect(AxisRotation(signedTargets: (1, 2, 4)) == nil)
        #expect(AxisRotation(signedTargets: (0, 2, 3)) == nil)
    }
}
