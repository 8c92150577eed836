import Foundation
import IMUGeometry
import Testing
@testable import IMUEvents

@Suite struct OrientationRecognizerTests {
    func gravity(tiltedFrom a: Vector3, toward b: Vector3, degrees: Double) -> Vector3 {
        let angle = degrees * .pi / 180
        return cos(angle) * a + sin(angle) * b
    }

    @Test(arguments: DeviceOrientation.allCases.filter { $0 != .unknown })
    func eachAxisIsItsOrientation(_ orientation: DeviceOrientation) {
        var recognizer = OrientationRecognizer()
        #expect(recognizer.update(gravity: orientation.gravityDirection!) == orientation)
    }

    @Test func theUIKitNamesMatchTheIssuesGravity() {
        var recognizer = OrientationRecognizer()
        #expect(recognizer.update(gravity: Vector3(0.98, 0.05, -0.1)) == .landscapeRight)  // top pointing right: x ≈ +1 g
        #expect(recognizer.update(gravity: Vector3(-0.98, 0.05, -0.1)) == .landscapeLeft)
        #expect(recognizer.update(gravity: Vector3(0, -1, 0)) == .portrait)
    }

    @Test func lingeringNearFortyFiveDegreesDoesNotFlap() {
        var recognizer = OrientationRecognizer()
        _ = recognizer.update(gravity: Vector3(0, -1, 0))
        var changes = 0
        // Wobbling ±8° about the 45° line between portrait and face up.
        for i in 0..<200 {
            let wobble = 45 + 8 * sin(Double(i) * 0.3)
            if recognizer.update(gravity: gravity(tiltedFrom: Vector3(0, -1, 0), toward: Vector3(0, 0, -1), degrees: wobble)) != nil {
                changes += 1
            }
        }
        #expect(changes == 0)
        #expect(recognizer.orientation == .portrait)
        // Tipped well past the boundary, it changes once.
        #expect(recognizer.update(gravity: gravity(tiltedFrom: Vector3(0, -1, 0), toward: Vector3(0, 0, -1), degrees: 60)) == .faceUp)
    }

    @Test func freeFallSaysNothing() {
        var recognizer = OrientationRecognizer()
        #expect(recognizer.update(gravity: Vector3(0, 0, -0.1)) == nil)
        #expect(recognizer.orientation == .unknown)
    }
}
