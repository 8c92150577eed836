import ArgumentParser
import Foundation
import IMUBus
import IMUCalibration
import IMUDrivers
import IMUGeometry
import IMUKit
import IMULog
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu calibrate`: gyro bias, six-pose accelerometer, figure-eight magnetometer; stored per chip.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the gyroscope, accelerometer and magnetometer; the result is used automatically.",
        discussion: """
            One file per chip (board, bus, address, type) in $XDG_CONFIG_HOME/imu (or /etc/imu with \
            --system), written atomically. Every step takes --replay LOG.csv, --json and --no-save.

            With the service installed (Scripts/install-service.sh) calibration has one place, \
            /var/lib/imu, which every command and the service read: calibrate as root there \
            (sudo imu calibrate gyro).

            Examples:
              imu calibrate gyro              hold the board still for 3 s
              imu calibrate accel             six poses, each face down in turn
              imu calibrate mag               wave the board in a figure-eight
              imu calibrate show
            """,
        subcommands: [CalibrateGyro.self, CalibrateAccelerometer.self, CalibrateMagnetometer.self, CalibrateShow.self, CalibrateReset.self])
}

func say(_ text: String, json: Bool) {
    // Under --json, standard output carries only the JSON; the guidance goes to the terminal.
    if json { printToStandardError(text) } else { print(text) }
}

// MARK: Gyroscope

struct CalibrateGyro: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gyro", abstract: "Measure the gyroscope's bias while the board lies still.", usage: "imu calibrate gyro [--sim | --replay <log>] [--duration <s>] [<options>]")

    @OptionGroup var options: CalibrationOptions

    @Option(parsing: .unconditional, help: "Seconds to hold still.")
    var duration: Double = 3

    func run() throws {
        StopSignal.install()
        let outcome = options.outcome
        let (source, stream) = try options.open(rate: 100, simScenario: "still")
        var samples: [InertialSample] = []
        switch source {
        case .replay(let log, let path):
            // The first still window of the log.
            let all = log.samples.map(InertialSample.init)
            var start = 0
            var found: [InertialSample]?
            while start < all.count, found == nil {
                let end = all[start...].firstIndex { $0.timestamp - all[start].timestamp >= duration } ?? all.count
                let window = Array(all[start..<end])
                if (try? StillnessCriteria.standard.check(window)) != nil, window.last!.timestamp - window[0].timestamp >= duration * 0.95 {
                    found = window
                }
                start = all[start...].firstIndex { $0.timestamp - all[start].timestamp >= 0.5 } ?? all.count
            }
            guard let found else { throw outcome.refuse("no still window of \(number(duration, 1)) s in \(path)") }
            samples = found
        case .live, .daemon:
            say("Hold the board still for \(number(duration, 0)) s…", json: outcome.json)
            var start: Double?
            try stream!.run { sample in
                start = start ?? sample.timestamp
                samples.append(InertialSample(sample))
                return sample.timestamp - start! >= duration
            }
        }
        let calibration: GyroBiasCalibration
        do {
            calibration = try GyroBiasEstimator.estimate(samples)
        } catch {
            throw outcome.refuse(error.reason)
        }
        let saved = try outcome.store(for: source.chipIdentity) { $0.gyroscope = .init(calibration, calibratedAt: Date()) }
        let b = calibration.biasRadiansPerSecond * (180 / .pi)
        outcome.publish(
            json: CalibrationJSON.gyroscope(calibration),
            words: "gyro bias: x \(number(b.x, 3)) y \(number(b.y, 3)) z \(number(b.z, 3)) °/s"
                + (calibration.temperatureCelsius.map { " at \(number($0, 1)) °C" } ?? ""),
            saved: saved)
        try source.applied(saved: saved, json: outcome.json)
    }
}

// MARK: Accelerometer

struct CalibrateAccelerometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accel", abstract: "Six poses, each side facing the floor in turn: offset and scale per axis.", usage: "imu calibrate accel [--sim | --replay <log>] [--hold <s>] [<options>]")

    @OptionGroup var options: CalibrationOptions

    @Option(parsing: .unconditional, help: "Seconds each pose is held still.")
    var hold: Double = 2

    @Option(parsing: .unconditional, help: "Give up after this many seconds (live).")
    var timeout: Double = 180

    func run() throws {
        StopSignal.install()
        let outcome = options.outcome
        let (source, stream) = try options.open(rate: 100, simScenario: "seed-sequence")
        var session = SixPoseSession()
        var window: [InertialSample] = []
        /// After a capture the device must move before the next one is taken.
        var waitingForMove = false
        var lastRejection = ""

        func consider(_ sample: InertialSample) -> Bool {
            window.append(sample)
            while let first = window.first, sample.timestamp - first.timestamp > hold { window.removeFirst() }
            guard let first = window.first, sample.timestamp - first.timestamp >= hold * 0.95 else { return false }
            if waitingForMove {
                if (try? session.stillness.check(window)) == nil { waitingForMove = false }
                return false
            }
            guard (try? session.stillness.check(window)) != nil else { return false }
            switch session.offer(window) {
            case .accepted(let pose):
                say("✓ \(pose.name) captured (\(6 - session.remaining.count) of 6)", json: outcome.json)
                if let next = session.nextPose { say("next: \(next.instruction)", json: outcome.json) }
                waitingForMove = true
                window.removeAll()
            case .rejected(let kind, let reason):
                if case .repeated = kind { waitingForMove = true }
                if reason != lastRejection { say("✗ \(reason)", json: outcome.json) }
                lastRejection = reason
                window.removeAll()
            }
            return session.isComplete
        }

        switch source {
        case .replay(let log, _):
            for sample in log.samples where consider(InertialSample(sample)) { break }
        case .live, .daemon:
            say("Six poses, held still \(number(hold, 0)) s each, in any order. First: \(session.nextPose!.instruction)", json: outcome.json)
            var start: Double?
            try stream!.run { sample in
                start = start ?? sample.timestamp
                return consider(InertialSample(sample)) || sample.timestamp - start! > timeout
            }
        }
        guard session.isComplete else {
            throw outcome.refuse("only \(6 - session.remaining.count) of six poses were captured; missing: "
                + session.remaining.map(\.name).joined(separator: ", "))
        }
        let calibration: AccelerometerCalibration
        do {
            calibration = try session.fit()
        } catch {
            throw outcome.refuse(error.reason)
        }
        let saved = try outcome.store(for: source.chipIdentity) { $0.accelerometer = .init(calibration, calibratedAt: Date()) }
        let o = calibration.offsetG * 1000, s = calibration.scale
        outcome.publish(
            json: CalibrationJSON.accelerometer(calibration),
            words: "accelerometer offset: x \(number(o.x, 1)) y \(number(o.y, 1)) z \(number(o.z, 1)) mg;"
                + " scale: x \(number(s.x, 4)) y \(number(s.y, 4)) z \(number(s.z, 4))",
            saved: saved)
        try source.applied(saved: saved, json: outcome.json)
    }
}

// MARK: Magnetometer

struct CalibrateMagnetometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mag", abstract: "Wave the board in a figure-eight: hard and soft iron, with a coverage check.", usage: "imu calibrate mag [--sim | --replay <log>] [--location <lat,lon>] [...]")

    @OptionGroup var options: CalibrationOptions

    @Option(parsing: .unconditional, help: "Stop collecting at this share of directions covered (%).")
    var coverage: Double = 80

    @Option(parsing: .unconditional, help: "Give up collecting after this many seconds (live).")
    var timeout: Double = 90

    @Option(parsing: .unconditional, help: "latitude,longitude for the expected field strength (World Magnetic Model).")
    var location: String?

    func validate() throws {
        guard coverage.isFinite, coverage > 0, coverage <= 100 else {
            throw ValidationError("--coverage must be more than 0 and at most 100 (% of directions), not \(number(coverage, 0))")
        }
        guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds, not \(timeout)") }
        if let location { _ = try LocationOption.parse(location) }
    }

    func run() throws {
        StopSignal.install()
        let outcome = options.outcome
        let (source, stream) = try options.open(rate: 50, simScenario: "tumble")
        var sweep = MagnetometerSweep(expectedFieldMicrotesla: try expectedField())
        var view = MagnetometerSweepView(goalPercent: coverage)
        // The view goes to standard error (standard output may carry --json); on a terminal it
        // takes the alternate screen, and Ctrl-C or q arrive as keys.
        let screen = isatty(STDERR_FILENO) != 0 ? TerminalScreen(output: STDERR_FILENO) : nil
        defer { screen?.restore() }
        var start: Double?
        /// Takes one new reading at `t`; true once coverage is enough.
        func take(_ field: Vector3, at timestamp: Double) -> Bool {
            start = start ?? timestamp
            let t = timestamp - start!
            sweep.add(field)
            guard view.due(at: t) else { return false }
            sweep.update()
            if let screen {
                if screen.keys().contains(where: { [UInt8(ascii: "q"), UInt8(ascii: "Q"), 3].contains($0) }) { StopSignal.request() }
                screen.draw(view.lines(sweep, seconds: t, columns: (screen.size ?? ScreenFit.standardSize).columns))
            } else if view.plainDue(at: t) {
                say(view.plainLine(sweep, seconds: t), json: true)
            }
            // Done when the coverage asked for is reached and all four figures meet their goals.
            return sweep.coveragePercent >= coverage && sweep.figures?.allGood == true
        }
        switch source {
        case .replay(let log, _):
            // The whole recording is used; the display shows how its coverage built up.
            for sample in log.samples {
                guard let field = sample.magneticField, field != sweep.fields.last else { continue }
                _ = take(field, at: sample.timestamp)
                if StopSignal.isRequested { break }
            }
        case .live, .daemon:
            if case .live(let session) = source, !session.driver.capabilities.magnetometer {
                throw outcome.refuse("the \(session.driver.model.rawValue) has no magnetometer")
            }
            if case .daemon(let samples) = source, !samples.hasMagnetometer {
                throw outcome.refuse("the \(samples.chip.chip) has no magnetometer")
            }
            if screen == nil { say("Move the board in a figure-eight, turning it through every direction…", json: outcome.json) }
            try stream!.run { sample in
                // The magnetometer runs slower than the stream: each new reading once.
                guard let field = sample.magneticField, field != sweep.fields.last else { return false }
                return take(field, at: sample.timestamp) || sample.timestamp - start! > timeout
            }
        }
        screen?.restore()
        sweep.update(final: true)
        // What the view showed last, kept in the terminal's scrollback.
        say(view.plainLine(sweep, seconds: 0).replacingOccurrences(of: "0 s: ", with: "at the end: "), json: outcome.json)
        let fields = sweep.fields
        let expected = sweep.expectedFieldMicrotesla
        let report: MagnetometerFit.Report
        do {
            report = try MagnetometerFit.calibrate(fields, expectedFieldMicrotesla: expected)
        } catch {
            throw outcome.refuse(error.reason)
        }
        if StopSignal.isRequested, sweep.figures?.allGood != true {
            throw outcome.refuse("coverage \(number(sweep.coveragePercent, 0))% of \(number(coverage, 0))% after \(sweep.fields.count) readings")
        }
        // One coverage figure throughout: the one the sweep showed and was judged by.
        var calibration = report.calibration
        calibration.coveragePercent = sweep.coveragePercent
        let unmet = sweep.figures.map(MagnetometerGoals.unmet) ?? ["no figures yet"]
        if !unmet.isEmpty { calibration.accuracy = min(calibration.accuracy, .medium) }
        let saved = try outcome.store(for: source.chipIdentity) { $0.magnetometer = .init(calibration, calibratedAt: Date()) }
        let h = calibration.hardIronMicrotesla
        var words = [
            "hard iron   x \(number(h.x, 2))  y \(number(h.y, 2))  z \(number(h.z, 2)) µT",
            "field       \(number(calibration.fieldMicrotesla, 1)) µT" + (expected.map { " (expected \(number($0, 1)) µT here)" } ?? ""),
            "fit         residual \(number(calibration.residualPercent, 2))%, coverage \(number(calibration.coveragePercent, 0))%,"
                + " \(report.model.summary), \(report.outliersRejected) outliers left out",
            "accuracy    \(calibration.accuracy.rawValue)",
        ]
        if !unmet.isEmpty {
            // Saved all the same (better than none), but said plainly, with what it costs.
            words.append("below its goals: " + unmet.joined(separator: ", ") + ".")
            words.append("Saved as accuracy \(calibration.accuracy.rawValue), not high: the heading can be several degrees off,")
            words.append("most where the sweep left gaps. Run it again to do better.")
        }
        if !unmet.isEmpty, let advice = report.advice { words.append("to do better: \(advice)") }
        outcome.publish(json: CalibrationJSON.magnetometer(calibration), words: words.joined(separator: "\n"), saved: saved)
        try source.applied(saved: saved, json: outcome.json)
    }

    func expectedField() throws -> Double? { try LocationOption.expectedFieldMicrotesla(location) }
}

// MARK: Show and reset

struct CalibrateShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print the stored calibrations: every chip's, or the one --sim / --board / --bus names.",
        usage: "imu calibrate show [--sim | --board <board>] [--toml] [--system]")

    @OptionGroup var source: IMUSourceOptions

    @Flag(help: "Print each file as stored (TOML) instead of a summary in °/s, mg and µT.")
    var toml = false

    @Flag(help: "Look in /etc/imu instead of $XDG_CONFIG_HOME/imu.")
    var system = false

    func run() throws {
        let directory = CalibrationDirectory.forWriting(environment: ProcessInfo.processInfo.environment, system: system)
        var names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".toml") }.sorted()
        // With an IMU named, only its file (the twin's with --sim).
        if source.sim || source.board != nil || source.bus != nil {
            let chip = try source.open().chipIdentity
            names = names.filter { $0 == chip.fileName }
            guard !names.isEmpty else {
                print("no calibration stored for \(chip) in \(directory)")
                return
            }
        }
        guard !names.isEmpty else {
            print("no calibration stored in \(directory)")
            return
        }
        // Every readable file is shown; the unusable ones are named on standard error and make
        // the exit status non-zero (a script checking a device's calibration must see it).
        var unusable: [String] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                let file = try CalibrationStore.read(path)
                // A file under another chip's name (copied from another board, say) is never
                // loaded for the chip it names, nor for the one its name says.
                let expected = CalibrationDirectory.path(for: file.chip, in: directory)
                guard expected == path else {
                    throw CalibrationFileError(
                        file: path, line: 0,
                        message: "the calibration of \(file.chip) is stored under another chip's name (it belongs in \(expected))")
                }
                print("\(path): \(file.chip)")
                print(toml ? file.tomlText : CalibrationSummary.lines(file).joined(separator: "\n"))
            } catch {
                printToStandardError("\(error)")
                unusable.append(path)
            }
        }
        if !unusable.isEmpty {
            throw CommandError("\(unusable.count) of \(names.count) calibration files cannot be used: "
                + unusable.joined(separator: ", ") + " (fix them, or remove them with: imu calibrate reset)")
        }
    }
}

struct CalibrateReset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset", abstract: "Remove a chip's stored calibration.",
        usage: "imu calibrate reset [--sim [<scenario>]] [--board <board>] [<options>]")

    @OptionGroup var source: IMUSourceOptions

    @OptionGroup var daemon: DaemonSourceOptions

    @Flag(help: "Remove from /etc/imu instead of $XDG_CONFIG_HOME/imu.")
    var system = false

    /// While a daemon owns the IMU, the chip is the one its hello names, and the daemon is asked
    /// to look for its calibration again once the file is gone (it would go on applying it).
    func run() throws {
        let directory = CalibrationDirectory.forWriting(environment: ProcessInfo.processInfo.environment, system: system)
        if let path = daemon.daemonSocket(hardwareChosen: source.sim || source.board != nil || source.bus != nil) {
            let served = try DaemonSamples(path: path)
            try remove(served.chip, from: directory)
            try served.reloadAfterReset()
            return
        }
        let session = try source.open()
        try remove(session.chipIdentity, from: directory)
    }

    func remove(_ chip: ChipIdentity, from directory: String) throws {
        try CommandError.wrapping { print(try CalibrationStore.remove(chip, from: directory) ? "removed the calibration of \(chip)" : "no calibration stored for \(chip)") }
    }
}
