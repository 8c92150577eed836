import IMUGeometry
import Testing
@testable import IMUMotion

@Suite struct FrameConversionTests {
    let degree = Double.pi / 180

    @Test func trueNorthNeedsADeclination() {
        #expect(FrameConversion(frame: .xTrueNorthZVertical) == nil)
        #expect(FrameConversion(frame: .xMagneticNorthZVertical) != nil)
    }

    @Test func trueHeadingIsMagneticPlusDeclination() throws {
        // Top pointing magnetic north; magnetic north is 4.5° east of true north.
        var conversion = try #require(FrameConversion(frame: .xTrueNorthZVertical, declinationDegrees: 4.5))
        let attitude = conversion.attitude(from: .identity)
        let heading = try #require(Heading.degrees(of: attitude.quaternion))
        #expect(abs(heading - 4.5) < 1e-9)
    }

    @Test func arbitraryFramesStartAtZeroYawAndFollowTurns() {
        var conversion = FrameConversion(frame: .xArbitraryCorrectedZVertical)!
        let start = Quaternion(axis: Vector3(0, 0, 1), angle: 1.0) * Quaternion(axis: Vector3(1, 0, 0), angle: 0.2)
        let first = conversion.attitude(from: start)
        #expect(abs(first.yaw) < 1e-9 && abs(first.pitch - 0.2) < 1e-9)
        let turned = conversion.attitude(from: Quaternion(axis: Vector3(0, 0, 1), angle: 30 * degree) * start)
        #expect(abs(turned.yaw - 30 * degree) < 1e-9)
    }
}
