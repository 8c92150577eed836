import Foundation
import IMUGeometry
import PropertyBased
import Testing
@testable import IMUMotion

/// The frames differ only by a turn about the vertical: for any attitude, converting keeps roll,
/// pitch, gravity's direction in the device and every relative attitude, and moves the heading
/// by exactly the frame's offset.
@Suite struct FrameConversionPropertyTests {
    static let angle = Gen.double(in: -3.14159...3.14159)
    static let pitch = Gen.double(in: -1.5...1.5)

    static func attitude(_ roll: Double, _ pitch: Double, _ yaw: Double) -> Quaternion {
        Quaternion(EulerAngles(roll: roll, pitch: pitch, yaw: yaw))
    }

    static func wrapped(_ radians: Double) -> Double { atan2(sin(radians), cos(radians)) }

    @Test func trueNorthTurnsOnlyTheYawByTheDeclination() async {
        await propertyCheck(input: Self.angle, Self.pitch, Self.angle, Gen.double(in: -30...30)) { roll, pitch, yaw, declination in
            var conversion = FrameConversion(frame: .xTrueNorthZVertical, declinationDegrees: declination)!
            let magnetic = Self.attitude(roll, pitch, yaw)
            let converted = conversion.attitude(from: magnetic)
            #expect(abs(converted.roll - roll) < 1e-9 && abs(converted.pitch - pitch) < 1e-9)
            #expect(abs(Self.wrapped(converted.yaw - (yaw - declination * .pi / 180))) < 1e-9)
            // Gravity in the device frame does not depend on the heading reference.
            let down = Vector3(0, 0, -1)
            #expect((magnetic.conjugate.rotate(down) - converted.quaternion.conjugate.rotate(down)).length < 1e-12)
        }
    }

    @Test func arbitraryFramesKeepRelativeAttitudes() async {
        await propertyCheck(input: Self.angle, Self.pitch, Self.angle, Self.angle) { roll, pitch, yaw, turn in
            var conversion = FrameConversion(frame: .xArbitraryZVertical)!
            let first = Self.attitude(roll, pitch, yaw)
            let later = Quaternion(axis: Vector3(0, 0, 1), angle: turn) * Self.attitude(pitch, roll / 2, yaw)
            let a = conversion.attitude(from: first), b = conversion.attitude(from: later)
            #expect(abs(a.yaw) < 1e-9, "the first attitude defines zero yaw")
            // The relative attitude between two samples is the same in every frame.
            let relativeFilter = first.conjugate * later
            let relativeConverted = a.quaternion.conjugate * b.quaternion
            let difference = relativeFilter.conjugate * relativeConverted
            #expect(abs(abs(difference.w) - 1) < 1e-12, "\(difference)")
        }
    }
}
