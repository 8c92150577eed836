import Foundation
import IMUBoards
import IMUDrivers
import IMUGeometry
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
@testable import IMUKit

/// The seeds' device-motion examples through the motion manager, end to end on the twin:
/// registers → driver → the board's mounting → calibration → the fixed-point filter → device
/// motion. Calibrated sensors (the datasheet's noise, no offsets): the readings Core Motion gives.
@Suite struct SeedMotionTests {
    /// The two chips, each on a board profile that carries it (the `sim` board's LSM9DS1 is
    /// mounted turned, so the mounting is exercised too).
    static let boards = ["sim", "gy-521"]

    static let degrees = 180 / Double.pi

    func board(_ name: String, _ scenario: any MotionScenario, clock: ParkingClock) throws -> VirtualBoard {
        VirtualBoard(profile: try BoardCatalog.standard().profile(named: name), scenario: scenario, errors: .calibrated, clock: clock)
    }

    /// Device motion over `seconds`, and the mean of `value` over its last `last` seconds
    /// (well after the one-second warm-up).
    func settled(
        _ boardName: String, _ scenario: any MotionScenario, frame: ReferenceFrame = .xArbitraryZVertical,
        seconds: Double = 8, last: Double = 3, declination: Double? = nil, _ value: (DeviceMotion) -> Double
    ) async throws -> Double {
        let clock = ParkingClock(limit: seconds)
        let motions = try await recordDeviceMotion(
            try board(boardName, scenario, clock: clock), clock: clock, frame: frame, seconds: seconds, declination: declination)
        let tail = motions.filter { $0.timestamp > seconds - last }
        try #require(tail.count > Int(last * 90), "\(tail.count) updates in the last \(last) s")
        return tail.map(value).reduce(0, +) / Double(tail.count)
    }

    @Test(arguments: boards)
    func heldUprightIsPitchPlus90(board: String) async throws {
        let pitch = try await settled(board, PoseScenario(.upright)) { $0.attitude.pitch * Self.degrees }
        #expect(abs(pitch - 90) < 2, "pitch \(pitch)°")
    }

    @Test(arguments: boards)
    func onItsRightEdgeIsRollPlus90(board: String) async throws {
        let roll = try await settled(board, PoseScenario(.landscapeRight)) { $0.attitude.roll * Self.degrees }
        #expect(abs(roll - 90) < 2, "roll \(roll)°")
    }

    /// Lying on its back with its top pointing west: yaw +90° against true north. The twin's
    /// earth field (Berlin) has a declination of +4.5°, so against magnetic north it is 94.5°.
    @Test func faceUpTopWestIsYawPlus90InANorthFrame() async throws {
        let trueYaw = try await settled("sim", PoseScenario(.onBack), frame: .xTrueNorthZVertical, seconds: 12, declination: 4.5) {
            $0.attitude.yaw * Self.degrees
        }
        #expect(abs(trueYaw - 90) < 2, "yaw \(trueYaw)° against true north")
        let magneticYaw = try await settled("sim", PoseScenario(.onBack), frame: .xMagneticNorthZVertical, seconds: 12) {
            $0.attitude.yaw * Self.degrees
        }
        #expect(abs(magneticYaw - 94.5) < 2, "yaw \(magneticYaw)° against magnetic north")
    }

    /// The gravity table of the foundation issue, now through device motion: each held pose
    /// has gravity on its axis within 0.03 g.
    @Test(arguments: boards, Pose.allCases)
    func gravityTableThroughDeviceMotion(board: String, pose: Pose) async throws {
        let clock = ParkingClock(limit: 5)
        let motions = try await recordDeviceMotion(try self.board(board, PoseScenario(pose), clock: clock), clock: clock, frame: .xArbitraryZVertical, seconds: 5)
        let tail = motions.filter { $0.timestamp > 3 }
        let gravity = tail.map(\.gravity).reduce(Vector3.zero, +) / Double(tail.count)
        let expected = PoseScenario(pose).deviceTruth(at: 0, earthField: .berlin).specificForceG * -1
        #expect((gravity - expected).length < 0.03, "\(pose): gravity \(gravity), expected \(expected)")
    }

    /// Pitch is in [−90°, 90°]: tilted 30° back from upright and 30° forward past upright both
    /// read pitch 60°. The seed tells them apart with gravity's z: towards the back (z < 0) the
    /// tilt from flat is the pitch, past upright (z > 0) it is 180° − pitch.
    @Test(arguments: boards)
    func pitchAmbiguityIsResolvedWithGravityZ(board: String) async throws {
        for (tilt, expected) in [(60.0, 60.0), (120.0, 120.0)] {
            let scenario = PoseScenarioAt(Quaternion(axis: Vector3(1, 0, 0), angle: tilt / Self.degrees))
            let clock = ParkingClock(limit: 8)
            let motions = try await recordDeviceMotion(try self.board(board, scenario, clock: clock), clock: clock, frame: .xArbitraryZVertical, seconds: 8)
            let last = try #require(motions.last)
            let pitch = last.attitude.pitch * Self.degrees
            #expect(abs(pitch - 60) < 2, "tilted \(tilt)°: pitch \(pitch)°")
            let fromFlat = last.gravity.z < 0 ? pitch : 180 - pitch
            #expect(abs(fromFlat - expected) < 2, "tilted \(tilt)°: gravity z \(last.gravity.z), resolved \(fromFlat)°")
        }
    }

    /// The seed's relative attitude: store the attitude, turn the device, and
    /// `multiply(byInverseOf:)` the stored one: what remains is the turn (here 90° about the
    /// vertical, counter-clockwise seen from above, while lying face up).
    @Test(arguments: boards)
    func relativeAttitudeFromAStoredReference(board: String) async throws {
        let turn = ClosureScenario(name: "turn", summary: "face up, turned 90° counter-clockwise at 4 s") { t in
            let f = min(max(t - 4, 0), 1)
            return MotionTruth(attitude: Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2 * f * f * (3 - 2 * f)))
        }
        let clock = ParkingClock(limit: 8)
        let motions = try await recordDeviceMotion(try self.board(board, turn, clock: clock), clock: clock, frame: .xArbitraryZVertical, seconds: 8)
        let reference = try #require(motions.last { $0.timestamp < 3.5 }).attitude
        var relative = try #require(motions.last).attitude
        relative.multiply(byInverseOf: reference)
        #expect(abs(relative.yaw * Self.degrees - 90) < 2, "\(relative)")
        #expect(abs(relative.pitch * Self.degrees) < 2 && abs(relative.roll * Self.degrees) < 2, "\(relative)")
        // Unmoved since the reference: identity.
        var still = try #require(motions.last { $0.timestamp < 3.9 }).attitude
        still.multiply(byInverseOf: reference)
        #expect(abs(still.quaternion.w) > cos(1 / Self.degrees), "\(still)")
    }
}

/// One held attitude (device → ENU), for poses the named scenarios do not have.
struct PoseScenarioAt: MotionScenario {
    let attitude: Quaternion
    init(_ attitude: Quaternion) { self.attitude = attitude }
    var name: String { "held" }
    var summary: String { "held still" }
    func truth(at t: Double) -> MotionTruth { MotionTruth(attitude: attitude) }
}
