import IMUGeometry
import IMUMotion
import Testing
@testable import IMUCommands
import IMUDevices
import IMUEngine
import IMUFormats

@Suite struct MotionFormatterTests {
    let motion = DeviceMotion(
        timestamp: 1.5,
        attitude: Attitude(quaternion: Quaternion(axis: Vector3(1, 0, 0), angle: .pi / 2), referenceFrame: .xMagneticNorthZVertical),
        rotationRate: Vector3(0.1, 0, 0), gravity: Vector3(0, -1, 0), userAcceleration: Vector3(0, 0, 0.2),
        magneticField: CalibratedMagneticField(field: Vector3(0, 20, -40), accuracy: .high), heading: nil)

    @Test func theReplayHeaderBeginsAsTheFusionIssueFixesIt() {
        let header = MotionFormatter(.csv).header(frame: .xMagneticNorthZVertical, source: "test").last!
        #expect(header.hasPrefix("t,quat_w,quat_x,quat_y,quat_z,roll_deg,pitch_deg,yaw_deg,gravity_x,gravity_y,gravity_z,user_acc_x,user_acc_y,user_acc_z,rot_x,rot_y,rot_z"))
    }

    @Test func aRowHasEveryColumnAndThePitchOfAnUprightDevice() {
        let fields = MotionFormatter(.csv).line(for: motion).split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.count == MotionFormatter.csvColumns.count)
        #expect(fields[0] == "1.500000")
        #expect(fields[6] == "90.000")        // pitch_deg
        #expect(fields[9] == "-1.00000")      // gravity_y
        #expect(fields[17] == "")             // no heading: the top points up
        #expect(fields[18] == "high")
    }

    @Test func jsonLinesUseTheSameKeys() throws {
        let line = MotionFormatter(.jsonl).line(for: motion)
        #expect(line.contains("\"pitch_deg\":90.000") && line.contains("\"heading_deg\":null") && line.contains("\"mag_accuracy\":\"high\""))
    }
}
