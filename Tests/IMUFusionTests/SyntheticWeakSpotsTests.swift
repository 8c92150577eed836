import Foundation
import IMUFusionReference
import IMUGeometry
import IMULog
import Testing

/// Issue 28: the two kinds of motion where the heading fell behind VQF's on BROAD trials outside
/// ../shared — (A) fast turns of several hundred °/s with rests between them, (B) a walk past a
/// fixed magnetic dipole — as synthetic trials with the true attitude known
/// (`Scripts/synthetic_broad.py`, seeds 1–14 and 28), scored with the BROAD metric for the Double reference,
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
        // VQF with its defaults, whatever the caller's shell set for Scripts/bench-synthetic.sh.
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "VQF_PARAMS" }
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

    /// Mean BROAD scores over the seeds (degrees): headings of the two cores and VQF, totals.
    struct Scores {
        var referenceHeading = 0.0, fixedHeading = 0.0, vqfHeading = 0.0
        var referenceTotal = 0.0, fixedTotal = 0.0, vqfTotal = 0.0
    }

    /// Fifteen seeds: one seed is one draw of offsets, sensitivities and turns, and B's heading
    /// depends on small things at its turns (per seed it moves by ±0.1–0.4° with changes that
    /// leave the fifteen-seed mean within 0.01°); with three the walk's mean was 0.006° from VQF's.
    static let seeds = Array(1...14) + [28]

    /// The generated trials (once per test process), each scored by all three filters; means over the seeds.
    static let scores: [String: Scores] = {
        guard let python else { return [:] }
        var result: [String: Scores] = [:]
        do {
            for seed in seeds {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imu-synthetic-\(getpid())-\(seed)")
                defer { try? FileManager.default.removeItem(at: folder) }
                try run(python, [packageRoot.appendingPathComponent("Scripts/synthetic_broad.py").path, folder.path, "\(seed)"])
                let vqfJSON = folder.appendingPathComponent("vqf.json")
                try run(python, [packageRoot.appendingPathComponent("Scripts/broad_vqf.py").path, "vqf", folder.path, vqfJSON.path])
                let vqf = try JSONSerialization.jsonObject(with: Data(contentsOf: vqfJSON)) as! [String: Any]
                for entry in vqf["trials"] as! [[String: Any]] {
                    let name = entry["name"] as! String
                    let trial = try BROADTrial.read(path: folder.appendingPathComponent("\(name).csv").path)
                    let reference = BROADReferenceTests.evaluate(trial, parameters: FusionParameters(), useMagnetometer: true)
                    let fixed = BROADFixedTests.evaluate(trial).nine
                    let (vqfHeading, vqfTotal) = (entry["heading_deg"] as! Double, entry["total_deg"] as! Double)
                    let n = Double(seeds.count)
                    var s = result[name] ?? Scores()
                    s.referenceHeading += reference.headingDegrees / n
                    s.fixedHeading += fixed.headingDegrees / n
                    s.vqfHeading += vqfHeading / n
                    s.referenceTotal += reference.totalDegrees / n
                    s.fixedTotal += fixed.totalDegrees / n
                    s.vqfTotal += vqfTotal / n
                    result[name] = s
                    print(String(
                        format: "seed %d %@: reference %.2f / %.2f / %.2f, fixed %.2f / %.2f / %.2f, VQF %.2f / %.2f",
                        seed, name, reference.totalDegrees, reference.headingDegrees, reference.inclinationDegrees,
                        fixed.totalDegrees, fixed.headingDegrees, fixed.inclinationDegrees, vqfTotal, vqfHeading))
                }
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

    /// The heading (reference and fixed core) no worse than VQF's on the same logs (mean over
    /// the seeds), and the two cores agreeing (they differ only in arithmetic).
    func compare(_ s: Scores) {
        #expect(s.referenceHeading <= s.vqfHeading, "reference heading \(s.referenceHeading)° vs VQF \(s.vqfHeading)°")
        #expect(s.fixedHeading <= s.vqfHeading, "fixed heading \(s.fixedHeading)° vs VQF \(s.vqfHeading)°")
    }

    func coresAgree(_ s: Scores) {
        #expect(abs(s.fixedHeading - s.referenceHeading) < 0.05, "heading: fixed \(s.fixedHeading)° vs reference \(s.referenceHeading)°")
        #expect(abs(s.fixedTotal - s.referenceTotal) < 0.05, "total: fixed \(s.fixedTotal)° vs reference \(s.referenceTotal)°")
    }

    /// Ahead of VQF since a rest catches up the heading error the turns left (eleventh pass: mean
    /// 0.647° vs 0.660°; 0.698° before). In motion the field is read through the tilt the turns
    /// leave, so τ_mag alone corrects there; at rest, with the field judged the earth's, the
    /// Kalman gain of the heading's uncertainty from turning (1 % of the angle turned) does.
    /// (Measured beside VQF's state, ninth pass: the remaining gap was not the field nor the
    /// bias, but what the bursts leave in the heading; Docs/fusion-accuracy.md.)
    @Test(.enabled(if: vqfAvailable, skipMessage))
    func fastTurnsWithRests() throws {
        let s = try #require(Self.scores["A_fast_turns_with_rests"], "no scores for the fast turns")
        compare(s)
        coresAgree(s)
    }

    /// Ahead of VQF (mean 0.471° vs 0.519°; 0.480° before the heading's catch-up at rest, 0.548°
    /// before a rest started the gravity low-pass again, 0.738° before the rest's offset came from
    /// the rest itself).
    /// Neither filter ever learns a field reference on this walk, so both use the field at the
    /// reduced gain throughout; the walk's rests at the path's ends now leave neither the offset
    /// (eighth pass) nor the inclination (tenth pass) of the walk's wobble and turn behind.
    @Test(.enabled(if: vqfAvailable, skipMessage))
    func walkPastADipole() throws {
        let s = try #require(Self.scores["B_walk_past_a_dipole"], "no scores for the walk past a dipole")
        compare(s)
        coresAgree(s)
    }
}

/// Instrument, don't guess: `SYNTHETIC_TRACE=FILE.csv swift test --filter headingTrace` prints, for
/// the reference filter on a BROAD-format trial, one line per 0.25 s: the bias estimate, the heading
/// error against the truth, rest, what the disturbance detector holds and the heading gain's state.
/// `Scripts/vqf_trace.py` prints VQF's counterpart, `Scripts/compare_traces.py` sets the two side by side.
/// The last columns are the device-fixed field test's verdict (1 earth, −1 turns with the device,
/// 0 not yet judged) and the last ratio judged; `TRACE_EARTH_FIELD=0` turns the test off.
@Suite struct HeadingTrace {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SYNTHETIC_TRACE"] != nil, "set SYNTHETIC_TRACE=trial.csv to trace"))
    func headingTrace() throws {
        let trial = try BROADTrial.read(path: ProcessInfo.processInfo.environment["SYNTHETIC_TRACE"]!)
        var p = FusionParameters()
        if ProcessInfo.processInfo.environment["TRACE_EARTH_FIELD"] == "0" { p.deviceFixedFieldMaxRatio = 0 }
        var s = FusionState(parameters: p)
        var previous: Double?  // the first row's dt is 0, as in `imu bench broad`
        var next = 0.0
        print("bias_x,bias_y,bias_z,t,move,heading_err_deg,rest,disturbed,reject_s,cur_norm,ref_norm,cur_sindip,ref_sindip,cand_norm,cand_s,gyro_lp_dps,last_err_deg,accuracy_deg,field_verdict,field_ratio,sens_z_pct,sens_z_applied_pct,sens_updates,sens_rejected")
        for row in trial.rows {
            update(state: &s, parameters: p, gyro: row.rotationRate, accel: row.acceleration, mag: row.magneticField, dt: previous.map { row.t - $0 } ?? 0)
            previous = row.t
            guard row.t >= next, let truth = row.truth else { continue }
            next += 0.25
            let e = AttitudeError(estimate: s.attitude, truth: truth)
            let signed = (s.attitude.normalized * truth.normalized.conjugate)
            let sign: Double = (signed.z * signed.w) < 0 ? -1 : 1
            let d = s.heading.disturbance
            let g = s.rest.gyroReference.stage2
            print(String(
                format: "%.4f,%.4f,%.4f,%.2f,%d,%.2f,%d,%d,%.1f,%.1f,%.1f,%.3f,%.3f,%.1f,%.1f,%.0f,%.2f,%.1f,%d,%.3f,%.3f,%.3f,%d,%d", s.bias.x * 180 / .pi, s.bias.y * 180 / .pi, s.bias.z * 180 / .pi, row.t, row.movement ? 1 : 0,
                sign * e.heading * 180 / .pi, s.rest.isAtRest ? 1 : 0, d.isDisturbed ? 1 : 0, s.heading.rejectionDuration,
                d.currentNorm, d.referenceNorm, d.currentSinDip, d.referenceSinDip, d.candidateNorm, d.candidateDuration,
                g.dot(g).squareRoot() * 180 / .pi, s.heading.lastError * 180 / .pi, s.heading.accuracy * 180 / .pi,
                Int(s.heading.deviceFixed.verdict.rawValue), s.heading.deviceFixed.lastRatio,
                s.sensitivity.estimate.z * 100, s.sensitivity.applied.z * 100, s.sensitivity.updates, s.sensitivity.rejected))
        }
    }
}
