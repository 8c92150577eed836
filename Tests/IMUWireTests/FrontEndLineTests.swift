import IMUDrivers
import IMUEvents
import IMUFormats
import IMUGeometry
import IMUMotion
import IMUWire
import Testing

/// The text front ends print the wire module's lines: `imu read/stream --format jsonl` (and so
/// the socket and the WebSocket, which send the engine's `jsonLine`, the same formatter) write
/// the same bytes for the same value, with the one number policy.
@Suite struct FrontEndLineTests {
    @Test func sampleLineIsTheWireLine() {
        let sample = MotionSample(
            timestamp: 12.5, acceleration: Vector3(-0.0000001, 0.25, -1), rotationRate: Vector3(.nan, 0.001, -0.002),
            magneticField: Vector3(20, -30.0004, 40), temperature: 25.126)
        let line = SampleFormatter(.jsonl).line(for: sample)
        #expect(line == OutputLines.sample(
            t: 12.5, acceleration: (-0.0000001, 0.25, -1), rotationRate: (.nan, 0.001, -0.002), magneticField: (20, -30.0004, 40),
            temperature: 25.126))
        #expect(line == #"{"t":12.500000,"acc_x":0.00000,"acc_y":0.25000,"acc_z":-1.00000,"gyr_x":null,"gyr_y":0.00100,"gyr_z":-0.00200,"mag_x":20.000,"mag_y":-30.000,"mag_z":40.000,"temp_c":25.13}"#)
    }

    @Test func motionLineHasTheColumnsAsKeys() {
        let motion = DeviceMotion(
            timestamp: 1, attitude: Attitude(quaternion: Quaternion(w: 1, x: 0, y: 0, z: 0), referenceFrame: .xArbitraryZVertical),
            rotationRate: Vector3(0, 0, -0.0000001), gravity: Vector3(0, 0, -1), userAcceleration: Vector3(0, 0, 0), heading: 359.999)
        let line = MotionFormatter(.jsonl).line(for: motion)
        #expect(line == #"{"t":1.000000,"quat_w":1.000000,"quat_x":0.000000,"quat_y":0.000000,"quat_z":0.000000,"roll_deg":0.000,"pitch_deg":0.000,"yaw_deg":0.000,"gravity_x":0.00000,"gravity_y":0.00000,"gravity_z":-1.00000,"user_acc_x":0.00000,"user_acc_y":0.00000,"user_acc_z":0.00000,"rot_x":0.00000,"rot_y":0.00000,"rot_z":0.00000,"heading_deg":0.00,"mag_accuracy":null}"#)
        let keys = MotionFormatter.csvColumns.map { "\"\($0)\":" }
        #expect(keys.allSatisfy(line.contains))
    }

    @Test func csvAndTablesSayNanButNeverMinusZero() {
        #expect(number(.nan, 3) == "nan")
        #expect(number(-0.0004, 3) == "0.000")
        #expect(number(2.5, 1) == "2.5")
    }
}
