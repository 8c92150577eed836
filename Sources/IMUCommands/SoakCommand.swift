import ArgumentParser
import Foundation
import IMUEvents
import IMUFusion
import IMUGeometry
import IMUKit
import IMUMotion
import IMUTwin
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu soak` (hidden; `Scripts/soak.sh` runs it): the whole live path — twin → driver →
/// acquisition loop → stored calibration → fixed-point fusion → events — for many samples on
/// virtual time, with faults sprinkled in, printing what must stay flat: resident memory, the
/// output quaternion's norm, the attitude error against the twin's truth, faults recovered,
/// samples dropped. Exits 1 when any of them is not as it should be.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run the live pipeline on the twin for many samples with faults injected, and report its health.", usage: "imu soak [<scenario>] [--samples <n>] [--rate <hz>] [<options>]",
        shouldDisplay: false)

    @Argument(help: "The twin's motion scenario.")
    var scenario = "tilt"

    @Option(help: "Samples to deliver.")
    var samples = 100_000_000

    @Option(parsing: .unconditional, help: "Samples per second (200 and above: through the chip's FIFO).")
    var rate: Double = 952

    @Option(help: "The simulated board (sim: an LSM9DS1 with its magnetometer; gy-521: an MPU-6050).")
    var board = "sim"

    @Option(help: "How wrong the twin's sensors are (typical, calibrated, perfect).")
    var errors = "typical"

    @Option(parsing: .unconditional, help: "Seconds of virtual time between faults (0: none).")
    var faultInterval: Double = 30

    @Option(parsing: .unconditional, help: "Print a line every this many samples (default: a tenth of the run).")
    var reportEvery: Int?

    /// The fusion issue's goal (mean total RMSE over BROAD), held here for each interval.
    static let attitudeGoalDegrees = 2.64

    func validate() throws {
        guard samples > 0 else { throw ValidationError("--samples must be positive, not \(samples)") }
        try SampleRateOption.validate(rate, lowest: 10)
        guard faultInterval.isFinite, faultInterval == 0 || faultInterval >= 5 else {
            throw ValidationError("--fault-interval must be 0 or at least 5 s, not \(faultInterval)")
        }
    }

    func run() throws {
        var output = LineOutput()
        defer { output.flush() }
        let session = try Hardware.openSimulated(scenario: scenario, errors: errors, board: board, virtualTime: true)
        guard let twin = session.twin else { throw CommandError("the soak needs the twin") }
        let calibration = try SensorCalibration.forCommand(session.chipIdentity)
        let magnetometer = session.driver.capabilities.magnetometer
        // 9D against true north (the twin's truth is ENU with true north); 6D has no heading to compare.
        let frame = magnetometer
            ? FrameConversion(frame: .xTrueNorthZVertical, declinationDegrees: twin.earthField.declinationDegrees)!
            : FrameConversion(frame: .xArbitraryZVertical)!
        // The engine's pipeline, driven by the acquisition loop itself: the soak injects faults
        // between reads and compares the fixed-point core with the twin's truth.
        var pipeline = MotionPipeline(calibration: calibration, magnetometer: magnetometer, frame: frame)

        var loop = AcquisitionLoop(driver: session.driver, clock: session.clock, placement: session.placement, rate: rate)
        var outages = 0, recoveries = 0
        var lastTrouble = "", lastRecovery = ""
        loop.report = { message in
            if !message.hasSuffix("still retrying") { outages += 1 }
            lastTrouble = message
        }
        loop.recovered = { message in
            recoveries += 1
            lastRecovery = message
        }
        let (configuration, outputRate) = try loop.configure()
        let every = reportEvery ?? max(1, samples / 10)
        output.write("soak: \(session.driver.model.rawValue) on the twin (board \(board), scenario \(scenario), errors \(errors), "
            + "calibration: \(calibration.summary)), \(number(outputRate, 0)) Hz\(loop.usesFIFO ? " through the FIFO" : ""), "
            + "\(samples) samples, a fault every \(faultInterval == 0 ? "never" : "\(number(faultInterval, 0)) s") of virtual time")
        _ = configuration
        output.write(["samples", "virtual s", "wall s", "RSS MB", "att RMS °", "att max °", "incl RMS °", "|q|-1 max", "faults",
               "recovered", "missing"].map { $0.leftPadded(11) }.joined())

        let clock = session.clock
        let start = clock.now, wallStart = Date()
        let period = 1 / outputRate
        var delivered = 0
        var interval = SoakStatistics()
        var faultsByKind: [SoakFault: Int] = [:]
        var faults = 0
        var nextFault = start + (faultInterval > 0 ? faultInterval : .infinity)
        var pendingReplug: Double?
        var longestReplugRecovery = 0.0
        var lastTimestamp: Double?
        var eventsByKind: [String: Int] = [:]
        var intervals: [(rss: Double, attitudeRMS: Double, normError: Double)] = []
        var missingTotal = 0

        let dropped = try loop.run { sample in
            let now = clock.now
            if let replug = pendingReplug, now >= replug {
                longestReplugRecovery = max(longestReplugRecovery, now - replug)
                pendingReplug = nil
            }
            if let last = lastTimestamp {
                let gap = Int(((sample.timestamp - last) / period).rounded())
                if gap > 1 { interval.missing += gap - 1 }
            }
            lastTimestamp = sample.timestamp
            delivered += 1
            interval.samples += 1
            let step = pipeline.update(sample)
            if let motion = step.motion {
                let truth = twin.scenario.truth(at: sample.timestamp - twin.scenarioStart).attitude
                interval.add(estimate: motion.attitude.quaternion, gravity: motion.gravity, truth: truth, core: pipeline.coreAttitude)
                for event in step.events { eventsByKind[Self.kind(of: event), default: 0] += 1 }
            }
            if now >= nextFault {
                let (fault, size) = SoakFault.plan(faults)
                if let replug = fault.inject(size: size, into: twin, placement: session.placement, now: now) {
                    pendingReplug = replug
                }
                faults += 1
                faultsByKind[fault, default: 0] += 1
                nextFault += faultInterval
            }
            if delivered % every == 0 || delivered == samples {
                let rss = Self.residentMegabytes()
                intervals.append((rss, interval.attitudeRMSDegrees, interval.largestNormError))
                missingTotal += interval.missing
                output.write([
                    "\(delivered)", number(now - start, 0), number(Date().timeIntervalSince(wallStart), 1), number(rss, 1),
                    number(interval.attitudeRMSDegrees, 3), number(interval.largestAttitudeError, 2),
                    number(interval.inclinationRMSDegrees, 3), String(format: "%.1e", interval.largestNormError),
                    "\(faults)", "\(recoveries)", "\(interval.missing)",
                ].map { $0.leftPadded(11) }.joined())
                output.flush()
                interval = SoakStatistics()
            }
            return delivered >= samples
        }

        let wall = Date().timeIntervalSince(wallStart)
        let kinds = SoakFault.allCases.map { "\($0.rawValue) \(faultsByKind[$0, default: 0])" }.joined(separator: ", ")
        let expectedOutages = faultsByKind.filter { $0.key.interruptsTheBus }.values.reduce(0, +)
        output.write("faults injected: \(faults) (\(kinds)); outages reported \(outages) (at least \(expectedOutages) expected), recovered \(recoveries)")
        if !lastTrouble.isEmpty { output.write("  last trouble told: \(lastTrouble)") }
        if !lastRecovery.isEmpty { output.write("  last recovery told: \(lastRecovery)") }
        output.write("longest time from a replug to the next sample: \(number(longestReplugRecovery, 3)) s (limit 1 s)")
        output.write("dropped samples: \(dropped) counted by the acquisition loop, \(missingTotal) missing in the timestamps")
        output.write("events: " + (eventsByKind.isEmpty ? "none" : eventsByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        let worstRMS = intervals.map(\.attitudeRMS).max() ?? 0
        let worstNorm = intervals.map(\.normError).max() ?? 0
        let rssSettled = intervals.count > 1 ? intervals[1].rss : intervals.first?.rss ?? 0
        let rssLast = intervals.last?.rss ?? 0
        output.write("attitude error against the twin's truth: worst interval RMS \(number(worstRMS, 3))° (goal ≤ \(Self.attitudeGoalDegrees)°); "
            + "largest |‖q‖ − 1| \(String(format: "%.1e", worstNorm))")
        output.write("resident memory: \(number(intervals.first?.rss ?? 0, 1)) MB at the first report, \(number(rssSettled, 1)) MB at the second, "
            + "\(number(rssLast, 1)) MB at the end")
        output.write("time: \(delivered) samples, \(number(clock.now - start, 0)) s of virtual time in \(number(wall, 1)) s "
            + "(\(number(wall / Double(max(delivered, 1)) * 1e9, 0)) ns a sample)")

        var failures: [String] = []
        if delivered < samples { failures.append("only \(delivered) of \(samples) samples delivered") }
        if recoveries != outages { failures.append("\(outages) outages but \(recoveries) recoveries") }
        if outages < expectedOutages { failures.append("\(expectedOutages) bus faults but only \(outages) outages told") }
        if longestReplugRecovery > 1 { failures.append("a replug took \(number(longestReplugRecovery, 2)) s to recover") }
        if worstRMS > Self.attitudeGoalDegrees { failures.append("an interval's attitude RMS error was \(number(worstRMS, 2))°") }
        if worstNorm > 1e-3 { failures.append("the quaternion's norm was off by \(worstNorm)") }
        if rssLast - rssSettled > 1 { failures.append("resident memory grew by \(number(rssLast - rssSettled, 1)) MB") }
        if faultsByKind[.fifoOverflow, default: 0] > 0 && dropped == 0 { failures.append("FIFO overflows but no dropped samples counted") }
        // The loop counts an outage's loss from the timestamps around it and an overflow's from
        // the FIFO, so its total is what the timestamps show missing (within a sample a fault).
        if abs(dropped - missingTotal) > faultsByKind.values.reduce(0, +) {
            failures.append("\(dropped) samples counted as dropped but \(missingTotal) missing in the timestamps")
        }
        if failures.isEmpty {
            output.write("soak: PASS")
            try output.finish()
        } else {
            output.write("soak: FAIL: " + failures.joined(separator: "; "))
            try output.finish()
            throw ExitCode(1)
        }
    }

    static func kind(of event: MotionEvent) -> String { event.kind.rawValue }

    /// This process's resident set (the second field of /proc/self/statm, in pages), in MB.
    static func residentMegabytes() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }
}
