import IMUEvents
import IMUGeometry
import Testing
@testable import IMUSensorProxy

/// iio-sensor-proxy's own table (src/test-orientation.c), readings in Core Motion's sign:
/// (0, −1 g, 0) normal, (−1 g, 0, 0) right-up, (1 g, 0, 0) left-up, (0, 1 g, 0) bottom-up.
@Suite struct ScreenOrientationTests {
    @Test func gravityAlongEachEdgeGivesIioSensorProxysName() {
        let table: [(Vector3, ScreenOrientation)] = [
            (Vector3(0, -1, 0), .normal), (Vector3(-1, 0, 0), .rightUp), (Vector3(1, 0, 0), .leftUp), (Vector3(0, 1, 0), .bottomUp),
        ]
        for (gravity, expected) in table {
            var recognizer = OrientationRecognizer()
            let device = recognizer.update(gravity: gravity)!
            #expect(ScreenOrientation.of(device, previous: .undefined) == expected, "\(gravity)")
        }
    }

    @Test func lyingFlatKeepsTheLastScreenOrientation() {
        #expect(ScreenOrientation.of(.faceUp, previous: .leftUp) == .leftUp)
        #expect(ScreenOrientation.of(.faceDown, previous: .normal) == .normal)
        #expect(ScreenOrientation.of(.faceUp, previous: .undefined) == .undefined)
        #expect(ScreenOrientation.allCases.map(\.rawValue) == ["undefined", "normal", "bottom-up", "left-up", "right-up"])
    }
}
