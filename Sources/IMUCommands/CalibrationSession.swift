import ArgumentParser
import Foundation
import IMUBus
import IMUCalibration
import IMUDrivers
import IMULog
import IMUDevices
import IMUEngine
import IMUFormats

/// What every `imu calibrate` step shares: where samples come from (a live IMU or a recorded
/// log), which chip the result belongs to, and how the result is saved and reported.
struct CalibrationOptions: ParsableArguments {
    @OptionGroup var source: IMUSourceOptions

    /// While a daemon owns the IMU the samples come through it (its raw samples), and the
    /// daemon applies the result at once: calibrating never needs the service stopped.
    @OptionGroup var daemon: DaemonSourceOptions

    @Option(help: "Calibrate from a recorded log instead of a live IMU.")
    var replay: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    @Flag(name: .customLong("no-save"), help: "Leave the stored calibration alone.")
    var noSave = false

    @Flag(help: "Save to /etc/imu instead of $XDG_CONFIG_HOME/imu (with the service installed: /var/lib/imu, always).")
    var system = false

    func validate() throws {
        if replay != nil && source.sim { throw ValidationError("choose --sim or --replay, not both") }
        if replay != nil && daemon.socket != nil { throw ValidationError("choose --socket or --replay, not both") }
        // Say so before a minute of waving, not after: the shared directory is root's to write.
        if !noSave, let shared = CalibrationDirectory.shared(environment: ProcessInfo.processInfo.environment),
           access(shared, W_OK) != 0 {
            let again = (["sudo", "imu"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            throw CommandError("""
                the service is installed, so calibration lives in \(shared), shared with it, and only root may write there:
                  \(again)
                (or add --no-save to measure without saving)
                """)
        }
    }

    var outcome: CalibrationOutcome { CalibrationOutcome(json: json, save: !noSave, systemWide: system) }

    /// The log, the daemon's raw samples (at its rate) when one serves the IMU, or a live
    /// session configured at `rate`; the twin moves through `simScenario` unless another
    /// scenario is named.
    func open(rate: Double, simScenario: String) throws -> (CalibrationSource, (any CalibrationSamples)?) {
        if let replay {
            return (.replay(try LogInput.read(replay), path: replay), nil)
        }
        if let path = daemon.daemonSocket(hardwareChosen: source.sim || source.board != nil || source.bus != nil) {
            let samples = try DaemonSamples(path: path)
            return (.daemon(samples), samples)
        }
        let session = try source.open(defaultScenario: simScenario)
        return (.live(session), try RawSamples(device: session, rate: rate))
    }
}

/// Samples for a calibration step, from a log or from the live stream.
enum CalibrationSource {
    case replay(ReplayLog, path: String)
    case live(IMUDevice)
    /// Through the daemon that owns the IMU.
    case daemon(DaemonSamples)

    /// The chip the calibration is for: the session's, or the one a log's metadata names.
    var chipIdentity: ChipIdentity? {
        switch self {
        case .daemon(let samples):
            return samples.chip
        case .live(let session):
            return ChipIdentity(
                chip: session.driver.model.rawValue, board: session.board.name, bus: session.bus.name,
                address: Int(session.placement.address))
        case .replay(let log, _):
            guard let chip = log.metadata.chip, let board = log.metadata.board, let bus = log.metadata.bus,
                  let addressText = log.metadata["address"], let address = Int(addressText.dropFirst(2), radix: 16)
            else { return nil }
            return ChipIdentity(chip: chip, board: board, bus: bus, address: address)
        }
    }
}

extension CalibrationSource {
    /// Through a daemon: asks it to apply what was just saved (nothing to do otherwise).
    func applied(saved: String?, json: Bool) throws {
        guard case .daemon(let samples) = self, let saved else { return }
        try samples.applyCalibration(saved: saved, json: json)
    }
}

/// Saving one part of a chip's calibration file and printing the outcome.
struct CalibrationOutcome {
    let json: Bool
    let save: Bool
    let systemWide: Bool

    var directory: String {
        CalibrationDirectory.forWriting(environment: ProcessInfo.processInfo.environment, system: systemWide)
    }

    /// Merges `update` into the chip's stored file (others parts kept) and writes it atomically.
    func store(for chip: ChipIdentity?, _ update: (inout CalibrationFile) -> Void) throws -> String? {
        guard save else { return nil }
        guard let chip else {
            throw CommandError("cannot tell which chip this log is from (its # chip/board/bus/address lines are missing): use --no-save")
        }
        do throws(CalibrationFileError) {
            var file = try CalibrationStore.load(chip, from: directory) ?? CalibrationFile(chip: chip)
            update(&file)
            return try CalibrationStore.save(file, in: directory)
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// The result: JSON for a program, else words and where the file went.
    func publish(json text: String, words: String, saved: String?) {
        if json {
            print(text)
        } else {
            print(words)
            if let saved { print("saved to \(saved)") }
        }
    }

    /// A refusal: words for a person, or {"error": …} for a program; the command then fails.
    /// After Ctrl-C it is a stop, not a refusal: what was missing is said, nothing is saved.
    func refuse(_ reason: String) -> Error {
        let refusal = RefusedCalibration(reason: reason, printed: json, stopped: StopSignal.isRequested)
        if json { print(CalibrationJSON.error(refusal.description)) }
        return refusal
    }
}

/// A calibration that was refused (or stopped by Ctrl-C before it was done): a non-zero exit,
/// its reason already printed under --json.
struct RefusedCalibration: Error, CustomStringConvertible {
    let reason: String
    let printed: Bool
    var stopped = false
    var description: String {
        stopped ? "calibration stopped before it was done, nothing saved: \(reason)" : "calibration refused: \(reason)"
    }
}
