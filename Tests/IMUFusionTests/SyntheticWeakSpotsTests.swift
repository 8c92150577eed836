import Foundation
import IMUFusionReference
import IMUGeometry
import IMULog
import Testing

/// Issue 28: the two kinds of motion where the heading fell behind VQF's on BROAD trials outside
/// ../shared — (A) fast turns of several hundred °/s with rests between them, (B) a walk past a
/// fixed magnetic dipole — as synthetic trials with the true attitude known
/// (`Scripts/synthetic_broad.py`, seed 28), scored with the BROAD metric for the Double reference,
/// the fixed core and VQF 2.1.2 (defaults, `Scripts/broad_vqf.py`) on the same files.
/// Needs python3 with numpy and vqf 2.1.2 (`.build-broad/venv`, made by Scripts/bench-broad.sh,
/// or the system's python3); skipped with a message otherwise.
@Suite struct SyntheticWeakSpotsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A python that can import numpy and vqf, or nil.
    static let python: String? = {
        let candidates = [packageRoot.appendingPathComponent(".build-broad/venv/bin/python").path, "/usr/bin/python3"]
        return candidates.first { path in
            FileManager.default.isExecutableFile(atPath: path)
                && (try? run(path, ["-c", "import numpy, vqf"])) != nil
        }
    }()

    /// Runs a program to completion; throws with its stderr when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [
                NSLocalizedDescriptionKey: "\(program) \(arguments.joined(separator: " ")): \(String(decoding: errorText, as: UTF8.self))",
            ])
        }
        return String(decoding: text, as: UTF8.self)
    }

    struct Scores {
        var reference: BROADScore
        var fixed: BROADScore
        var vqfHeading: Double
        var vqfTotal: Double
    }

    /// The generated trials (once per test process), each scored by all three filters.
    static let scores: [String: Scores] = {
        guard let python else { return [:] }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imu-synthetic-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try run(python, [packageRoot.appendingPathComponent("Scripts/synthetic_broad.py").path, folder.path, "28"])
            let vqfJSON = folder.appendingPathComponent("vqf.json")
            try run(python, [packageRoot.appendingPathComponent("Scripts/broad_vqf.py").path, "vqf", folder.path, vqfJSON.path])
            let vqf = try JSONSerialization.jsonObject(with: Data(contentsOf: vqfJSON)) as! [String: Any]
            var result: [String: Scores] = [:]
            for entry in vqf["trials"] as! [[String: Any]] {
                let name = entry["name"] as! String
                let trial = try BROADTrial.read(path: folder.appendingPathComponent("\(name).csv").path)
                let reference = BROADReferenceTests.evaluate(trial, parameters: FusionParameters(), useMagnetometer: true)
                let fixed = BROADFixedTests.evaluate(trial).nine
                result[name] = Scores(
                    reference: reference, fixed: fixed, vqfHeading: entry["heading_deg"] as! Double,
                    vqfTotal: entry["total_deg"] as! Double)
                print(String(
                    format: "%@: reference %.2f / %.2f / %.2f, fixed %.2f / %.2f / %.2f, VQF total %.2f heading %.2f",
                    name, reference.totalDegrees, reference.headingDegrees, reference.inclinationDegrees,
                    fixed.totalDegrees, fixed.headingDegrees, fixed.inclinationDegrees, entry["total_deg"] as! Double,
                    entry["heading_deg"] as! Double))
            }
            return result
        } catch {
            Issue.record("the synthetic trials could not be made or scored: \(error)")
            return [:]
        }
    }()

    static let vqfAvailable = python != nil
    static let skipMessage: Comment =
        "python3 with numpy and vqf 2.1.2 is absent (Scripts/bench-broad.sh makes .build-broad/venv): the comparison with VQF is skipped"

    /// The heading (reference and fixed core) no worse than VQF's on the same log, and the two
    /// cores agreeing (they differ only in arithmetic).
    func compare(_ s: Scores) {
        #expect(s.reference.headingDegrees <= s.vqfHeading, "reference heading \(s.reference.headingDegrees)° vs VQF \(s.vqfHeading)°")
        #expect(s.fixed.headingDegrees <= s.vqfHeading, "fixed heading \(s.fixed.headingDegrees)° vs VQF \(s.vqfHeading)°")
    }

    func coresAgree(_ s: Scores) {
        #expect(abs(s.fixed.headingDegrees - s.reference.headingDegrees) < 0.05, "heading: fixed \(s.fixed.headingDegrees)° vs reference \(s.reference.headingDegrees)°")
        #expect(abs(s.fixed.totalDegrees - s.reference.totalDegrees) < 0.05, "total: fixed \(s.fixed.totalDegrees)° vs reference \(s.reference.totalDegrees)°")
    }

    @Test(.enabled(if: vqfAvailable, skipMessage))
    func fastTurnsWithRests() throws {
        let s = try #require(Self.scores["A_fast_turns_with_rests"], "no scores for the fast turns")
        compare(s)
        coresAgree(s)
    }

    /// Still behind VQF here (0.44° vs 0.42° at seed 28): neither filter ever learns a field
    /// reference on this walk (the first one needs 5 s of turning in one steady field), so both use
    /// the field at the reduced gain throughout, ours at τ_mag·2 = 40 s, VQF's at 18 s. Taking the
    /// reduced gain away until a reference exists closes it here but costs BROAD 0.34° (trials 10,
    /// 15 and 32: Docs/fusion-accuracy.md). When this comparison starts to pass, drop the known issue.
    @Test(.enabled(if: vqfAvailable, skipMessage))
    func walkPastADipole() throws {
        let s = try #require(Self.scores["B_walk_past_a_dipole"], "no scores for the walk past a dipole")
        withKnownIssue("issue 28: the heading on a walk past a magnet is still behind VQF's") { compare(s) }
        coresAgree(s)
    }
}

/// Instrument, don't guess: `SYNTHETIC_TRACE=FILE.csv swift test --filter headingTrace` prints, for
/// the reference filter on a BROAD-format trial, one line per 0.25 s: the heading error against
/// the truth, what the disturbance detector holds and the heading gain's state.
@Suite struct HeadingTrace {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SYNTHETIC_TRACE"] != nil, "set SYNTHETIC_TRACE=trial.csv to trace"))
    func headingTrace() throws {
        let trial = try BROADTrial.read(path: ProcessInfo.processInfo.environment["SYNTHETIC_TRACE"]!)
        let p = FusionParameters()
        var s = FusionState(parameters: p)
        var previous = trial.rows[0].t - trial.samplePeriod
        var next = 0.0
        print("t,move,heading_err_deg,rest,disturbed,reject_s,cur_norm,ref_norm,cur_sindip,ref_sindip,cand_norm,cand_s,gyro_lp_dps,last_err_deg,accuracy_deg")
        for row in trial.rows {
            update(state: &s, parameters: p, gyro: row.rotationRate, accel: row.acceleration, mag: row.magneticField, dt: row.t - previous)
            previous = row.t
            guard row.t >= next, let truth = row.truth else { continue }
            next += 0.25
            let e = AttitudeError(estimate: s.attitude, truth: truth)
            let signed = (s.attitude.normalized * truth.normalized.conjugate)
            let sign: Double = (signed.z * signed.w) < 0 ? -1 : 1
            let d = s.heading.disturbance
            let g = s.rest.gyroReference.stage2
            print(String(
                format: "%.2f,%d,%.2f,%d,%d,%.1f,%.1f,%.1f,%.3f,%.3f,%.1f,%.1f,%.0f,%.2f,%.1f", row.t, row.movement ? 1 : 0,
                sign * e.heading * 180 / .pi, s.rest.isAtRest ? 1 : 0, d.isDisturbed ? 1 : 0, s.heading.rejectionDuration,
                d.currentNorm, d.referenceNorm, d.currentSinDip, d.referenceSinDip, d.candidateNorm, d.candidateDuration,
                g.dot(g).squareRoot() * 180 / .pi, s.heading.lastError * 180 / .pi, s.heading.accuracy * 180 / .pi))
        }
    }
}
