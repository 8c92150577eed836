import Foundation
import IMUBoards
import IMUDrivers
import IMUGeometry
import IMUMotion
import IMUTwin
import Testing
import IMUDevices
@testable import IMUKit

/// The fusion's figures per nine-axis part on the twin: every scenario through registers →
/// driver → calibration → the fixed-point filter → device motion (the motion manager, true
/// north), the attitude compared with the scenario's truth after a 5 s settling time.
/// Calibrated sensors (the datasheet's noise, no offsets), as the seeds' tests run them.
@Suite(.serialized) struct PartFusionFiguresTests {
    static let parts = ChipModel.allCases.filter { $0.part.magnetometer != nil }
    static let seconds = 15.0, settle = 5.0
    static let degrees = 180 / Double.pi

    struct Figures {
        var tiltRMS: Double, tiltWorst: Double, headingRMS: Double, headingWorst: Double
    }

    /// Tilt error: the angle between the estimated and the true vertical. Heading error: the
    /// twist about the vertical of estimate · truth⁻¹ (reference → reference).
    static func errors(estimate: Quaternion, truth: Quaternion) -> (tilt: Double, heading: Double) {
        let e = estimate * truth.conjugate
        let up = e.rotate(Vector3(0, 0, 1))
        let tilt = acos(max(-1, min(1, up.z)))
        var heading = 2 * atan2(e.z, e.w)
        if heading > .pi { heading -= 2 * .pi }
        if heading < -.pi { heading += 2 * .pi }
        return (tilt * degrees, abs(heading) * degrees)
    }

    func figures(_ chip: ChipModel, _ scenario: any MotionScenario) async throws -> Figures {
        let clock = ParkingClock(limit: Self.seconds)
        let board = VirtualBoard(chip: chip, scenario: scenario, errors: .calibrated, seed: 3, clock: clock)
        let motions = try await recordDeviceMotion(
            board, clock: clock, frame: .xTrueNorthZVertical, seconds: Self.seconds, declination: 4.5)
        var tilt: [Double] = [], heading: [Double] = []
        for motion in motions where motion.timestamp - board.scenarioStart > Self.settle {
            let truth = scenario.deviceTruth(at: motion.timestamp - board.scenarioStart, earthField: .berlin).attitude
            let (t, h) = Self.errors(estimate: motion.attitude.quaternion, truth: truth)
            tilt.append(t)
            heading.append(h)
        }
        try #require(tilt.count > Int((Self.seconds - Self.settle) * 90), "\(tilt.count) updates")
        func rms(_ v: [Double]) -> Double { (v.map { $0 * $0 }.reduce(0, +) / Double(v.count)).squareRoot() }
        return Figures(tiltRMS: rms(tilt), tiltWorst: tilt.max()!, headingRMS: rms(heading), headingWorst: heading.max()!)
    }

    /// Prints one line per part and scenario (the table in Docs/chips-icm20948.md), and holds
    /// every part to the same bounds on the held poses: a part whose magnetometer axes were
    /// turned wrongly shows heading errors of tens of degrees there.
    @Test(arguments: parts)
    func figuresOverTheScenarios(_ chip: ChipModel) async throws {
        for scenario in MotionScenarios.all {
            let f = try await figures(chip, scenario)
            print(String(
                format: "fusion figures %@ %@: tilt RMS %.2f° (worst %.2f°), heading RMS %.2f° (worst %.2f°)",
                chip.rawValue, scenario.name, f.tiltRMS, f.tiltWorst, f.headingRMS, f.headingWorst))
            if scenario is PoseScenario {
                #expect(f.tiltRMS < 1, "\(chip.rawValue) \(scenario.name): tilt RMS \(f.tiltRMS)°")
                #expect(f.headingRMS < 2, "\(chip.rawValue) \(scenario.name): heading RMS \(f.headingRMS)°")
            }
        }
    }
}
