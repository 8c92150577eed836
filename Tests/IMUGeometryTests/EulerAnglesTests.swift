import PropertyBased
import Testing
@testable import IMUGeometry

/// Core Motion's Euler angles (design notes): R = Rz(yaw)·Rx(pitch)·Ry(roll).
@Suite struct EulerAnglesTests {
    let degree = Double.pi / 180

    func attitude(deviceX x: Vector3, deviceY y: Vector3) -> Quaternion {
        // The columns of R are the device axes in the reference frame.
        let z = x.cross(y)
        return Quaternion(Matrix3(rows: Vector3(x.x, y.x, z.x), Vector3(x.y, y.y, z.y), Vector3(x.z, y.z, z.z)))
    }

    @Test func heldUprightIsPitchPlus90() {
        let q = attitude(deviceX: Vector3(1, 0, 0), deviceY: Vector3(0, 0, 1))
        #expect(abs(q.eulerAngles.pitch - 90 * degree) < 1e-9)
    }

    @Test func lyingOnItsRightEdgeIsRollPlus90() {
        // The right edge down: device x points down, y still north.
        let q = attitude(deviceX: Vector3(0, 0, -1), deviceY: Vector3(0, 1, 0))
        let e = q.eulerAngles
        #expect(abs(e.roll - 90 * degree) < 1e-9 && abs(e.pitch) < 1e-9 && abs(e.yaw) < 1e-9)
    }

    @Test func onItsBackTopWestIsYawPlus90() {
        let q = attitude(deviceX: Vector3(0, 1, 0), deviceY: Vector3(-1, 0, 0))
        let e = q.eulerAngles
        #expect(abs(e.yaw - 90 * degree) < 1e-9 && abs(e.pitch) < 1e-9 && abs(e.roll) < 1e-9)
    }

    @Test func identityIsFaceUpTopNorth() {
        #expect(Quaternion.identity.eulerAngles == EulerAngles(roll: 0, pitch: 0, yaw: 0))
    }

    @Test func anglesStayInCoreMotionsRanges() {
        let half = EulerAngles(Quaternion(axis: Vector3(0, 0, 1), angle: .pi).rotationMatrix)
        #expect(half.yaw == .pi)  // (−π, π]: a half turn is +π, never −π
    }

    @Test func eulerQuaternionMatrixRoundTrip() async {
        let angle = Gen.double(in: -3.14159...3.14159)
        let pitch = Gen.double(in: -1.5...1.5)
        await propertyCheck(input: angle, pitch, angle) { roll, pitch, yaw in
            let e = EulerAngles(roll: roll, pitch: pitch, yaw: yaw)
            let q = Quaternion(e)
            let back = q.eulerAngles
            #expect(abs(back.roll - roll) < 1e-9 && abs(back.pitch - pitch) < 1e-9 && abs(back.yaw - yaw) < 1e-9, "\(e) → \(back)")
            let m = q.rotationMatrix, m2 = e.rotationMatrix
            for i in 0..<3 {
                for j in 0..<3 { #expect(abs(m[i, j] - m2[i, j]) < 1e-12) }
            }
        }
    }

    @Test func matrixToQuaternionRoundTrip() async {
        let component = Gen.double(in: -1...1)
        await propertyCheck(input: component, component, component, component) { w, x, y, z in
            let n = (w * w + x * x + y * y + z * z).squareRoot()
            guard n > 1e-3 else { return }
            var q = Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
            if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
            let back = Quaternion(q.rotationMatrix)
            #expect(q.angle(to: back) < 1e-6)
        }
    }
}
