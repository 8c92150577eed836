import Foundation
import IMUBoards
import IMUGeometry
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
@testable import IMUKit

/// The fusion's tilt and heading error per part on the twin, over every scenario: registers →
/// driver → mounting → the fixed-point filter (9D, true north) → attitude, against the
/// scenario's truth. Calibrated sensors (each part's datasheet noise, no offsets). A new part's
/// board is held to the LSM9DS1's (the `sim` board's) figures: its noise is lower, so its
/// errors must not be larger than the LSM9DS1's by more than a margin for noise of the runs.
@Suite(.serialized) struct PartAccuracyOnTwinTests {
    static let degrees = 180 / Double.pi
    static let seconds = 20.0
    /// The filter's first seconds (heading converging on the magnetometer) are not counted.
    static let settling = 4.0

    struct Figures {
        var rmsTilt = 0.0, maxTilt = 0.0, rmsHeading = 0.0, maxHeading = 0.0
    }

    /// Tilt: the angle between the estimated and true vertical in device axes. Heading: the
    /// twist about the reference z of the rotation from the true attitude to the estimate.
    static func errors(estimate: Quaternion, truth: Quaternion) -> (tilt: Double, heading: Double) {
        let up = Vector3(0, 0, 1)
        let a = estimate.conjugate.rotate(up), b = truth.conjugate.rotate(up)
        let tilt = acos(max(-1, min(1, a.dot(b)))) * degrees
        let e = estimate * truth.conjugate
        var heading = 2 * atan2(e.z, e.w) * degrees
        heading = heading.truncatingRemainder(dividingBy: 360)
        if heading > 180 { heading -= 360 }
        if heading <= -180 { heading += 360 }
        return (tilt, abs(heading))
    }

    static func figures(board name: String, scenario: any MotionScenario) async throws -> Figures {
        let clock = ParkingClock(limit: seconds)
        let profile = try BoardCatalog.standard().profile(named: name)
        let board = VirtualBoard(profile: profile, scenario: scenario, errors: .calibrated, seed: 3, clock: clock)
        let start = board.scenarioStart
        let motions = try await recordDeviceMotion(
            board, clock: clock, frame: .xTrueNorthZVertical, seconds: seconds, declination: EarthField.berlin.declinationDegrees)
        var f = Figures(), count = 0.0
        for motion in motions where motion.timestamp - start > settling {
            let truth = scenario.truth(at: motion.timestamp - start).attitude
            let (tilt, heading) = errors(estimate: motion.attitude.quaternion, truth: truth)
            f.rmsTilt += tilt * tilt
            f.rmsHeading += heading * heading
            f.maxTilt = max(f.maxTilt, tilt)
            f.maxHeading = max(f.maxHeading, heading)
            count += 1
        }
        try #require(count > 100, "\(name) \(scenario.name): \(count) updates")
        f.rmsTilt = (f.rmsTilt / count).squareRoot()
        f.rmsHeading = (f.rmsHeading / count).squareRoot()
        return f
    }

    @Test(arguments: ["berryimu-v3", "lsm6dsox-lis3mdl"])
    func theNewPartsFuseAsWellAsTheLSM9DS1(board: String) async throws {
        var table = "| scenario | \(board) tilt RMS / max | heading RMS / max | sim (LSM9DS1) tilt RMS / max | heading RMS / max |\n|---|---|---|---|---|\n"
        var worse: [String] = []
        for scenario in MotionScenarios.all {
            let new = try await Self.figures(board: board, scenario: scenario)
            let reference = try await Self.figures(board: "sim", scenario: scenario)
            func f(_ v: Double) -> String { String(format: "%.2f°", v) }
            table += "| \(scenario.name) | \(f(new.rmsTilt)) / \(f(new.maxTilt)) | \(f(new.rmsHeading)) / \(f(new.maxHeading)) "
                + "| \(f(reference.rmsTilt)) / \(f(reference.maxTilt)) | \(f(reference.rmsHeading)) / \(f(reference.maxHeading)) |\n"
            if new.rmsTilt > reference.rmsTilt * 1.25 + 0.25 { worse.append("\(scenario.name) tilt \(new.rmsTilt) vs \(reference.rmsTilt)") }
            if new.rmsHeading > reference.rmsHeading * 1.25 + 0.5 { worse.append("\(scenario.name) heading \(new.rmsHeading) vs \(reference.rmsHeading)") }
        }
        print(table)
        #expect(worse.isEmpty, "\(worse)")
    }
}
