import Foundation
import IMUFusionReference
import IMUGeometry
import IMULog
import Testing

/// The reference filter on the shared BROAD trials (../shared/datasets/broad beside the
/// package; skipped with a message when absent). Run in release:
/// `swift test -c release -Xswiftc -enable-testing --filter BROADReference`.
/// Data: Laidig, Caruso, Cereatti, Seel, "BROAD — A Benchmark for Robust Inertial Orientation
/// Estimation", Data 6(7), 2021 (CC BY 4.0).
@Suite struct BROADReferenceTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let folder = URL(fileURLWithPath: BROADDataset.directory(besideRepository: packageRoot.path)
        ?? packageRoot.appendingPathComponent("../shared/datasets/broad").standardized.path)

    /// VQF 2.1.2's 9D total RMSE per trial (dataset README), in file order.
    static let vqfTotal = [1.38, 1.00, 1.75, 1.80, 0.73, 2.31, 0.81, 1.55, 6.73, 2.57, 7.67, 3.35]

    /// Parameter overrides for tuning runs: FUSION_PARAMS="accelerometerTau=3,magnetometerTau=9".
    static var parameters: FusionParameters {
        var p = FusionParameters()
        let spec = ProcessInfo.processInfo.environment["FUSION_PARAMS"] ?? ""
        for item in spec.split(separator: ",") {
            let kv = item.split(separator: "=")
            guard kv.count == 2, let v = Double(kv[1]) else { continue }
            switch kv[0] {
            case "accelerometerTau": p.accelerometerTau = v
            case "magnetometerTau": p.magnetometerTau = v
            case "restBiasTau": p.restBiasTau = v
            case "motionBiasTau": p.motionBiasTau = v
            case "motionBias": p.motionBiasEnabled = v != 0
            case "restBias": p.restBiasEnabled = v != 0
            case "rejection": p.magneticRejectionEnabled = v != 0
            case "magneticNormThreshold": p.magneticNormThreshold = v
            case "magneticDipThresholdDeg": p.magneticDipThreshold = v * .pi / 180
            case "magneticMaxRejectionDuration": p.magneticMaxRejectionDuration = v
            case "magneticNewFieldDuration": p.magneticNewFieldDuration = v
            case "magneticRejectionFactor": p.magneticRejectionFactor = v
            case "magneticReferenceTau": p.magneticReferenceTau = v
            case "restGyroThresholdDeg": p.restGyroThreshold = v * .pi / 180
            case "restAccelThreshold": p.restAccelThreshold = v / 9.81
            case "restFilterTau": p.restFilterTau = v
            case "restMinDuration": p.restMinDuration = v
            case "biasClipDeg": p.biasClip = v * .pi / 180
            case "magneticBiasTau": p.magneticBiasTau = v
            case "magneticBiasPriorDuration": p.magneticBiasPriorDuration = v
            case "magneticBiasClipDeg": p.magneticBiasClip = v * .pi / 180
            case "magneticBiasRestHold": p.magneticBiasRestHold = v
            default: print("unknown parameter \(kv[0])")
            }
        }
        return p
    }

    /// The filter over a trial from its first sample, scored by the BROAD metric; every
    /// `sampleStride`-th sample, the magnetometer on every `magnetometerStride`-th of those.
    static func evaluate(
        _ trial: BROADTrial, parameters: FusionParameters, useMagnetometer: Bool,
        sampleStride: Int = 1, magnetometerStride: Int = 1
    ) -> BROADScore {
        var state = FusionState(parameters: parameters)
        var metric = BROADMetric()
        let rows = trial.rows
        // The first row has dt = 0, as `imu bench broad` gives it: the tests score what the bench scores.
        var previous: Double?
        var kept = 0
        for i in stride(from: 0, to: rows.count, by: sampleStride) {
            let row = rows[i]
            let withField = useMagnetometer && kept % magnetometerStride == 0
            kept += 1
            update(
                state: &state, parameters: parameters, gyro: row.rotationRate, accel: row.acceleration,
                mag: withField ? row.magneticField : nil, dt: previous.map { row.t - $0 } ?? 0)
            previous = row.t
            metric.add(estimate: useMagnetometer ? state.attitude : state.attitude6D, truth: row.truth, movement: row.movement)
        }
        return metric.score!
    }

    @Test func twelveTrials() throws {
        let files = (try? BROADDataset.trialPaths(in: Self.folder.path)) ?? []
        guard files.count == 12 else {
            print("BROAD: \(Self.folder.path) absent or incomplete; skipping the BROAD evaluation")
            return
        }
        let p = Self.parameters
        var rows = [(String, BROADScore, BROADScore)]()
        var slowRows = [BROADScore]()
        for path in files {
            let trial = try BROADTrial.read(path: path)
            let nine = Self.evaluate(trial, parameters: p, useMagnetometer: true)
            let six = Self.evaluate(trial, parameters: p, useMagnetometer: false)
            rows.append((trial.name, nine, six))
            // Same trial at a third of the rate (95 Hz) with the magnetometer at a quarter of that.
            slowRows.append(Self.evaluate(trial, parameters: p, useMagnetometer: true, sampleStride: 3, magnetometerStride: 4))
        }
        func f(_ x: Double) -> String { String(format: "%6.2f", x) }
        print("trial                                         9D total heading  incl.   VQF   6D incl.")
        for (i, (name, nine, six)) in rows.enumerated() {
            print(
                name.padding(toLength: 45, withPad: " ", startingAt: 0) + " " + f(nine.totalDegrees) + "  "
                    + f(nine.headingDegrees) + " " + f(nine.inclinationDegrees) + " " + f(Self.vqfTotal[i]) + "   " + f(six.inclinationDegrees))
        }
        let n = Double(rows.count)
        let meanTotal = rows.map(\.1.totalDegrees).reduce(0, +) / n
        let meanHeading = rows.map(\.1.headingDegrees).reduce(0, +) / n
        let meanInclination = rows.map(\.1.inclinationDegrees).reduce(0, +) / n
        let mean6D = rows.map(\.2.inclinationDegrees).reduce(0, +) / n
        let worst = zip(rows, Self.vqfTotal).map { $0.1.totalDegrees - $1 }.max() ?? 0
        print(
            "mean".padding(toLength: 45, withPad: " ", startingAt: 0) + " " + f(meanTotal) + "  " + f(meanHeading)
                + " " + f(meanInclination) + " " + f(2.64) + "   " + f(mean6D))
        print("worst excess over VQF per trial: \(f(worst))°")
        let slowMean = slowRows.map(\.totalDegrees).reduce(0, +) / n
        print("at 95 Hz with the magnetometer at 24 Hz: mean 9D total \(f(slowMean))°, per trial "
            + slowRows.map { f($0.totalDegrees) }.joined(separator: " "))

        // What this parameter set reaches (see the report); small margins for numerical noise.
        // Defaults only: tuning runs (FUSION_PARAMS) print, they do not judge.
        guard ProcessInfo.processInfo.environment["FUSION_PARAMS"] == nil else { return }
        #expect(meanTotal <= 2.30)  // reached 2.27; goal ≤ 2.64 (VQF)
        #expect(worst <= 0.6)  // reached 0.51 (trial 27); goal: no trial more than 1.5° worse than VQF
        #expect(mean6D <= 0.59)  // reached 0.57; goal ≤ 0.59 (VQF 6D)
        #expect(slowMean <= 2.45)  // reached 2.37 at 95 Hz, magnetometer 24 Hz
    }
}
