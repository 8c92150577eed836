import ArgumentParser
import Foundation
import IMUDrivers
import IMUFusion
import IMUFusionReference
import IMUGeometry
import IMULog
import IMUMotion
import IMUTwin
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu bench`: how accurate and how fast the fusion is.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the fusion filter (accuracy on the BROAD dataset, time per update) and event timing.",
        subcommands: [BenchBROADCommand.self, BenchFusionCommand.self, BenchEventsCommand.self])
}

/// The filters the benchmarks can run.
enum BenchFilter: String, ExpressibleByArgument, CaseIterable {
    /// The Double reference filter (IMUFusionReference).
    case reference
    /// The fixed-point core (IMUFusion), the same algorithm in integers.
    case fixed

    /// A stepper that returns the attitude after every sample (valid or not: the BROAD metric
    /// starts at the first sample).
    /// `parameters`: nil for the defaults (the fixed core's own integers); otherwise the
    /// reference's parameters, converted for the fixed core (`bench broad --set`).
    func makeStepper(magnetometer: Bool, parameters chosen: FusionParameters? = nil) -> (MotionSample, Double) -> Quaternion {
        switch self {
        case .reference:
            let parameters = chosen ?? FusionParameters()
            var state = FusionState(parameters: parameters)
            return { sample, dt in
                IMUFusionReference.update(
                    state: &state, parameters: parameters, gyro: sample.rotationRate, accel: sample.acceleration,
                    mag: magnetometer ? sample.magneticField : nil, dt: dt)
                return state.attitude
            }
        case .fixed:
            // Converts each sample to Q16.16 and dt to Q2.30 inside the step (`bench fusion`
            // times the fixed update on samples converted beforehand, see `FixedFusionSteps`).
            let coefficients = chosen.map { FixedFusionCoefficients(parameters: FixedFusionParameters($0)) }
                ?? FixedFusionCoefficients()
            var state = FixedFusionState(coefficients: coefficients)
            return { sample, dt in
                let step = FixedFusionSteps.Step(sample, dt: dt, magnetometer: magnetometer)
                fixedFusionUpdate(
                    state: &state, coefficients: coefficients, gyro: step.gyro, accel: step.accel, mag: step.mag,
                    dt: step.dt)
                return FixedFusionSteps.quaternion(state.attitude)
            }
        }
    }
}

/// The fixed filter's inputs converted ahead of time, so that `bench fusion --filter fixed`
/// times the integer update alone (as a firmware loop fed by a sensor driver would run it).
enum FixedFusionSteps {
    struct Step {
        var gyro: FixedVector3<Q16>
        var accel: FixedVector3<Q16>
        var mag: FixedVector3<Q16>?
        var dt: Q30

        init(_ sample: MotionSample, dt: Double, magnetometer: Bool) {
            gyro = FixedFusionSteps.q16(sample.rotationRate)
            accel = FixedFusionSteps.q16(sample.acceleration)
            mag = magnetometer ? sample.magneticField.map(FixedFusionSteps.q16) : nil
            self.dt = Q30(dt)
        }
    }

    static func q16(_ v: Vector3) -> FixedVector3<Q16> { FixedVector3(x: Q16(v.x), y: Q16(v.y), z: Q16(v.z)) }
    static func quaternion(_ q: FixedQuaternion) -> Quaternion {
        Quaternion(w: q.w.doubleValue, x: q.x.doubleValue, y: q.y.doubleValue, z: q.z.doubleValue)
    }

    /// One pass of the 9D update over the steps; returns the time (s) and a checksum of the
    /// last attitude (so the work cannot be optimised away).
    static func timedPass(_ steps: [Step]) -> (seconds: Double, checksum: Double) {
        let coefficients = FixedFusionCoefficients()
        var state = FixedFusionState(coefficients: coefficients)
        var checksum: Int64 = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for step in steps {
            fixedFusionUpdate(
                state: &state, coefficients: coefficients, gyro: step.gyro, accel: step.accel, mag: step.mag, dt: step.dt)
            checksum &+= Int64(state.gyroAttitude.w.raw)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (seconds, Double(checksum) + state.attitude.w.doubleValue)
    }
}

/// `imu bench broad`: the BROAD metric on every trial of the dataset.
struct BenchBROADCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "broad",
        abstract: "Score the filter on the BROAD trials (RMSE of total, heading and inclination error, in degrees).",
        discussion: """
            The dataset: --dataset DIR, else the folder IMU_BROAD_DATASET names, else ../shared/datasets/broad beside the repository. The 9D run uses \
            gyro, accelerometer and magnetometer; the 6D run leaves the magnetometer out (inclination only). \
            Scores: D. Laidig et al., "BROAD — A Benchmark for Robust Inertial Orientation Estimation", \
            Data 6(7), 2021 (CC BY 4.0).
            """)

    @Option(help: "The folder holding the BROAD trial CSVs.")
    var dataset: String?

    @Option(help: "The filter: fixed (the fixed-point core, the product's filter) or reference (its Double twin).")
    var filter: BenchFilter = .fixed

    @Flag(help: "Print JSON (trials with total_deg, heading_deg, inclination_deg, inclination_6d_deg).")
    var json = false

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "A parameter other than its default, NAME=SECONDS (repeatable; Scripts/bench-loo.sh's grid).",
        discussion: "Names: \(Self.settable.keys.sorted().joined(separator: ", ")); with --filter reference also the experiments of issue 28: motion-bias-random-walk ((°/s)²/s), motion-bias-noise (°/s over 1 s) and motion-bias-sensitivity-error (%), the bias with its own uncertainty; rest-restart-rate (°/s) and rest-restart-force (g), the rest references restarted after fast motion; gyro-sensitivity-prior (%, default 1 = the datasheets' ±3 % as 3σ; 0 = off), gyro-sensitivity-noise (°, default 1), gyro-sensitivity-settle (s quiet after the turn before it is learnt from, default 0) and gyro-sensitivity-significance (σ, default 2 = ŝ applied per axis only where it is two of its standard deviations from 0; 0 = ŝ applied as it is), the gyro's sensitivity per axis learnt from the turns the field test shows to be the earth's and taken out of every axis of the gyro frame (Docs/fusion-accuracy.md). Both filters: gyro-sensitivity-prior, -noise, -settle and -significance (the fixed core clamps the prior and the significance at 50 % and 4σ); device-fixed-ratio (%, default 9; 0 = off) and device-fixed-turn (°, default 90), the test of a field that turns with the device, which gates τ_mag / magnetic-rejection-factor while it says the field is the earth's; device-follow-ratio (%, default 50), above which the field follows the device and τ_mag × that factor holds; heading-sensitivity-error (%, default 1; 0 = off) and heading-field-noise (°, default 5), the heading's uncertainty from turning, caught up at rest.", valueName: "NAME=SECONDS"))
    var settings: [String] = []

    /// The time constants `--set` may change (seconds).
    static var settable: [String: WritableKeyPath<FusionParameters, Double>] {
        [
            "accelerometer-tau": \.accelerometerTau, "magnetometer-tau": \.magnetometerTau,
            "motion-bias-tau": \.motionBiasTau, "magnetic-bias-tau": \.magneticBiasTau, "rest-bias-tau": \.restBiasTau,
            "rest-filter-tau": \.restFilterTau,
        ]
    }

    /// The reference filter's experiments (issue 28: the bias with its own uncertainty), in
    /// degrees: the parameter and the factor to radians. `--filter reference` only (the fixed
    /// core has no such parameters).
    static var referenceOnly: [String: (path: WritableKeyPath<FusionParameters, Double>, toRadians: Double)] {
        let degree = Double.pi / 180
        return [
            // (°/s)²/s
            "motion-bias-random-walk": (\.motionBiasRandomWalk, degree * degree),
            // °/s over one second
            "motion-bias-noise": (\.motionBiasMeasurementNoise, degree),
            // °/s
            "rest-restart-rate": (\.restReferenceRestartRate, degree),
            // g
            "rest-restart-force": (\.restReferenceRestartForce, 1),
            // % of the rate
            "motion-bias-sensitivity-error": (\.motionBiasSensitivityError, 0.01),
        ]
    }

    /// Issue 28's parts on by default in both cores (`FixedFusionParameters.init(_:)` converts
    /// them), in their units: the device-fixed field test in % and ° (device-fixed-ratio=0 turns
    /// it off, and with it the heading gains it gates), the ratio above which a field follows
    /// the device in %, the heading's uncertainty from turning in % and °, and the gyro's sensitivity learnt
    /// from earth turns in %, °, s and standard deviations (prior or significance 0 = off).
    static var bothFilters: [String: (path: WritableKeyPath<FusionParameters, Double>, toRadians: Double)] {
        let degree = Double.pi / 180
        return [
            "device-fixed-ratio": (\.deviceFixedFieldMaxRatio, 0.01), "device-fixed-turn": (\.deviceFixedFieldMinTurn, degree),
            "device-follow-ratio": (\.deviceFixedFieldFollowRatio, 0.01),
            "heading-sensitivity-error": (\.headingSensitivityError, 0.01),
            "heading-field-noise": (\.headingFieldNoise, degree),
            "gyro-sensitivity-prior": (\.gyroSensitivityPrior, 0.01),
            "gyro-sensitivity-noise": (\.gyroSensitivityDirectionNoise, degree),
            "gyro-sensitivity-settle": (\.gyroSensitivitySettleDuration, 1),
            "gyro-sensitivity-significance": (\.gyroSensitivitySignificance, 1),
        ]
    }

    /// The parameters `--set` gives; nil without any.
    func chosenParameters() throws -> FusionParameters? {
        guard !settings.isEmpty else { return nil }
        var parameters = FusionParameters()
        let names = (Array(Self.settable.keys) + Array(Self.referenceOnly.keys) + Array(Self.bothFilters.keys)).sorted()
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2,
                Self.settable[parts[0]] != nil || Self.referenceOnly[parts[0]] != nil || Self.bothFilters[parts[0]] != nil
            else {
                throw CommandError("--set \(setting): expected NAME=SECONDS with NAME one of \(names.joined(separator: ", "))")
            }
            // 0 only where it means "off" (the field test's ratio, the sensitivity estimate's prior
            // and its significance gate, the heading's catch-up at rest); a time constant of 0 has no gain.
            let offAllowed = [
                "device-fixed-ratio", "gyro-sensitivity-prior", "gyro-sensitivity-significance", "heading-sensitivity-error",
            ].contains(parts[0])
            guard let value = Double(parts[1]), value.isFinite, value > 0 || offAllowed && value == 0, value <= 1000 else {
                throw CommandError("--set \(setting): the value must be above 0 and at most 1000")
            }
            if let (path, toRadians) = Self.bothFilters[parts[0]] {
                parameters[keyPath: path] = value * toRadians
            } else if let path = Self.settable[parts[0]] {
                parameters[keyPath: path] = value
            } else if let (path, toRadians) = Self.referenceOnly[parts[0]] {
                guard filter == .reference else {
                    throw CommandError("--set \(parts[0]): an experiment of the reference filter only (--filter reference)")
                }
                parameters[keyPath: path] = value * toRadians
            }
        }
        return parameters
    }

    /// --dataset, else the folder IMU_BROAD_DATASET names, else the one beside the repository.
    func datasetFolder(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let dataset { return dataset }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        if let folder = BROADDataset.directory(besideRepository: repository, environment: environment) { return folder }
        if let named = environment[BROADDataset.environmentVariable], !named.isEmpty {
            throw CommandError("no BROAD dataset: \(BROADDataset.environmentVariable)=\(named) is not a folder")
        }
        throw CommandError("no BROAD dataset: give --dataset DIR (the folder of trial CSVs)")
    }

    func run() throws {
        let chosen = try chosenParameters()
        let folder = try datasetFolder()
        let paths: [String]
        paths = try CommandError.wrapping { try BROADDataset.trialPaths(in: folder) }
        guard !paths.isEmpty else { throw CommandError("no trial CSVs in \(folder)") }

        var results: [(name: String, samples: Int, nine: BROADScore, six: BROADScore)] = []
        for path in paths {
            let trial: BROADTrial
            trial = try CommandError.wrapping { try BROADTrial.read(path: path) }
            guard let nine = score(trial, magnetometer: true, parameters: chosen),
                  let six = score(trial, magnetometer: false, parameters: chosen) else {
                throw CommandError("\(trial.name): no movement rows with known truth to score")
            }
            results.append((trial.name, trial.rows.count, nine, six))
        }

        func mean(_ value: (BROADScore, BROADScore) -> Double) -> Double {
            results.map { value($0.nine, $0.six) }.reduce(0, +) / Double(results.count)
        }
        if json {
            let object: [String: Any] = [
                "filter": filter.rawValue,
                "trials": results.map {
                    [
                        "name": $0.name, "samples": $0.samples, "total_deg": $0.nine.totalDegrees,
                        "heading_deg": $0.nine.headingDegrees, "inclination_deg": $0.nine.inclinationDegrees,
                        "inclination_6d_deg": $0.six.inclinationDegrees,
                    ] as [String: Any]
                },
                "mean_total_deg": mean { n, _ in n.totalDegrees },
                "mean_heading_deg": mean { n, _ in n.headingDegrees },
                "mean_inclination_deg": mean { n, _ in n.inclinationDegrees },
                "mean_inclination_6d_deg": mean { _, s in s.inclinationDegrees },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("trial".padding(48) + "9D total  heading  incl.   6D incl.")
            for r in results {
                print(r.name.padding(48) + [r.nine.totalDegrees, r.nine.headingDegrees, r.nine.inclinationDegrees, r.six.inclinationDegrees]
                    .map { number($0, 2).leftPadded(8) }.joined())
            }
            print("mean".padding(48) + [mean { n, _ in n.totalDegrees }, mean { n, _ in n.headingDegrees }, mean { n, _ in n.inclinationDegrees }, mean { _, s in s.inclinationDegrees }]
                .map { number($0, 2).leftPadded(8) }.joined())
        }
    }

    func score(_ trial: BROADTrial, magnetometer: Bool, parameters: FusionParameters? = nil) -> BROADScore? {
        let step = filter.makeStepper(magnetometer: magnetometer, parameters: parameters)
        var metric = BROADMetric()
        var previous: Double?
        for row in trial.rows {
            let dt = previous.map { row.t - $0 } ?? 0
            previous = row.t
            metric.add(estimate: step(row.sample, dt), truth: row.truth, movement: row.movement)
        }
        return metric.score
    }
}

/// `imu bench fusion`: time per 9D update over a log.
struct BenchFusionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fusion",
        abstract: "Time the 9D fusion update over a log (default: a built-in synthetic one).",
        discussion: "The time is the update alone (the log is read first), best of five passes.")

    @Option(help: "A log in the replay CSV format.")
    var input: String?

    @Option(help: "The filter: fixed (the fixed-point core, the product's filter) or reference (its Double twin).")
    var filter: BenchFilter = .fixed

    @Flag(help: "Print JSON: updates, total_seconds, ns_per_update.")
    var json = false

    func run() throws {
        let samples: [MotionSample]
        let source: String
        if let input {
            samples = try CommandError.wrapping { try ReplayLog.read(path: input).samples }
            source = input
        } else {
            samples = Self.syntheticLog()
            source = "synthetic figure-eight, 60 s at 200 Hz"
        }
        guard samples.count > 1 else { throw CommandError("the log has too few samples to time") }
        let steps = samples.indices.map { i in (samples[i], i == 0 ? 0 : samples[i].timestamp - samples[i - 1].timestamp) }

        var best = Double.infinity
        var checksum = 0.0
        let fixedSteps = filter == .fixed ? steps.map { FixedFusionSteps.Step($0.0, dt: $0.1, magnetometer: true) } : []
        for _ in 0..<5 {
            if filter == .fixed {
                let pass = FixedFusionSteps.timedPass(fixedSteps)
                best = min(best, pass.seconds)
                checksum += pass.checksum
                continue
            }
            let step = filter.makeStepper(magnetometer: true)
            let start = DispatchTime.now().uptimeNanoseconds
            for (sample, dt) in steps { checksum += step(sample, dt).w }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let nanoseconds = best / Double(steps.count) * 1e9
        if json {
            let object: [String: Any] = [
                "filter": filter.rawValue, "source": source, "updates": steps.count, "total_seconds": best,
                "ns_per_update": nanoseconds, "checksum": checksum,
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("\(filter.rawValue) filter, \(source): \(steps.count) updates in \(number(best, 4)) s, \(number(nanoseconds, 1)) ns per 9D update (best of 5)")
        }
    }

    /// The twin's figure-eight truth (no sensor errors): gyro, accelerometer and magnetometer.
    static func syntheticLog() -> [MotionSample] {
        let scenario = MotionScenarios.named("figure-eight")!
        return (0..<12_000).map { i in
            let t = Double(i) / 200
            let truth = scenario.deviceTruth(at: t, earthField: .berlin)
            return MotionSample(
                timestamp: t, acceleration: -truth.specificForceG, rotationRate: truth.rotationRateRadiansPerSecond,
                magneticField: truth.magneticFieldMicrotesla)
        }
    }
}
