import Foundation
import IMUGeometry
import IMULog
import Testing
@testable import IMUCalibration

/// Real magnetometer data: the shared BROAD trials (Laidig, Caruso, Cereatti, Seel, "BROAD —
/// A Benchmark for Robust Inertial Orientation Estimation", Data 6(7), 2021, CC BY 4.0),
/// read in place from ../shared/datasets/broad (or $IMU_BROAD_DATASET) and skipped when that is absent.
struct BROADMagnetometerTests {
    static let directory: String = {
        // Tests/IMUCalibrationTests/this file → the package root → ../shared/datasets/broad
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return BROADDataset.directory(besideRepository: root.path)
            ?? root.appendingPathComponent("../shared/datasets/broad").standardized.path
    }()

    static var available: Bool { FileManager.default.fileExists(atPath: directory + "/02_undisturbed_slow_rotation_B.csv") }

    /// Every `stride`-th magnetometer row of a trial, µT.
    static func magnetometer(_ trial: String, stride: Int = 5) throws -> [Vector3] {
        let text = try String(contentsOfFile: directory + "/" + trial + ".csv", encoding: .utf8)
        var out: [Vector3] = []
        for (i, line) in text.split(separator: "\n").enumerated() where i > 0 && i % stride == 0 {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 10, let x = Double(fields[7]), let y = Double(fields[8]), let z = Double(fields[9]) else { continue }
            out.append(Vector3(x, y, z))
        }
        return out
    }

    /// Calibrated on one undisturbed trial, the field magnitude on the other undisturbed
    /// trials of the same setup (B) spreads no more than it did raw.
    @Test(.enabled(if: available, "../shared/datasets/broad is absent"))
    func calibratingOnOneTrialDoesNotWidenTheSpreadOnTheOthers() throws {
        let report = try MagnetometerFit.calibrate(try Self.magnetometer("02_undisturbed_slow_rotation_B"))
        let c = report.calibration
        print("BROAD calibration on trial 02: model \(report.model), field \(format(c.fieldMicrotesla, 2)) µT, "
            + "hard iron \(c.hardIronMicrotesla), residual \(format(c.residualPercent, 2)) %, coverage "
            + "\(format(c.coveragePercent, 0)) %, accuracy \(c.accuracy.rawValue), outliers \(report.outliersRejected)")
        for trial in ["05_undisturbed_slow_rotation_with_breaks_B", "07_undisturbed_fast_rotation_B",
                      "14_undisturbed_slow_translation_with_breaks_B", "18_undisturbed_fast_translation_with_breaks_B"] {
            let samples = try Self.magnetometer(trial)
            let before = standardDeviation(samples.map(\.length))
            let after = standardDeviation(samples.map { c.apply(to: $0).length })
            print("BROAD \(trial): magnitude std raw \(format(before, 3)) µT, calibrated \(format(after, 3)) µT")
            #expect(after <= before, "\(trial): \(after) µT calibrated vs \(before) µT raw")
        }
    }
}
