import Foundation
import IMUEvents
import IMUGeometry
import IMUMotion
import Testing
@testable import IMUMQTT

/// The MQTT motion topic's JSON, which Home Assistant's sensors read: before the first
/// orientation the orientation is null (Home Assistant's "unknown"), not the string "unknown",
/// which is not among the enum sensor's options.
@Suite struct MQTTMotionTopicTests {
    let motion = DeviceMotion(
        timestamp: 1.5,
        attitude: Attitude(quaternion: Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2), referenceFrame: .xMagneticNorthZVertical),
        rotationRate: Vector3(0.1, 0, 0), gravity: Vector3(0, -1, 0), userAcceleration: Vector3(0, 0, 0.2),
        magneticField: CalibratedMagneticField(field: Vector3(0, 20, -40), accuracy: .high), heading: nil)

    @Test func orientationIsNullBeforeTheFirstAndItsNameAfter() throws {
        let before = MQTTFrontEnd.motionJSON(motion, orientation: .unknown)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [String: Any])
        #expect(object["orientation"] is NSNull, "\(before)")
        #expect(object["heading_deg"] is NSNull && object["mag_accuracy"] as? String == "high", "\(before)")
        #expect(object["pitch_deg"] as? Double == 90)
        let after = MQTTFrontEnd.motionJSON(motion, orientation: .portrait)
        #expect(after.contains(#""orientation":"portrait""#), "\(after)")
    }
}
