import ArgumentParser
import IMUDevices
import IMUEngine
import IMUFormats

/// Where samples come from, the same for every live command: hardware (a board profile and bus,
/// detected when not given) or the simulated IMU with a motion scenario.
struct IMUSourceOptions: ParsableArguments {
    @Flag(help: "Use the simulated IMU (the digital twin) instead of hardware.")
    var sim = false

    @Argument(help: "With --sim: the motion scenario (imu read --list-scenarios lists them).")
    var scenario: String?

    @Option(help: "With --sim: how wrong the simulated sensors are: typical (uncalibrated), calibrated (noise only) or perfect.")
    var errors: String = "typical"

    @Option(help: "The board or hat profile (a name from Boards/, e.g. sense-hat, gy-521, or a file). Default: detected.")
    var board: String?

    @Option(help: "The I²C bus device (default: the board's, or the one where an IMU is found).")
    var bus: String?

    /// Runs the twin on virtual time (no real waiting): for tests.
    @Flag(name: .customLong("virtual-time"), help: .hidden)
    var virtualTime = false

    func validate() throws {
        if let scenario, !sim { throw ValidationError("a scenario ('\(scenario)') only makes sense with --sim") }
        if errors != "typical" && !sim { throw ValidationError("--errors only makes sense with --sim") }
    }

    /// The session; with --sim and no scenario named, `defaultScenario` (else the twin lies still).
    func open(defaultScenario: String? = nil) throws -> IMUDevice {
        try Hardware.open(
            sim: sim, scenario: scenario ?? defaultScenario, errors: errors, board: board, bus: bus,
            virtualTime: virtualTime)
    }

    /// The options that name this IMU again, for the commands a notice suggests (" --sim --board gy-521").
    var calibrateCommandOptions: String {
        var options = ""
        if sim { options += " --sim" }
        if let board { options += " --board \(board)" }
        if let bus { options += " --bus \(bus)" }
        return options
    }
}

/// `--rate`, checked the same way by every live command: finite, from `lowest` (10 Hz where the
/// fusion runs, 0.1 Hz for raw samples) up to the chips' 1000 Hz.
enum SampleRateOption {
    static func validate(_ rate: Double, lowest: Double) throws {
        guard rate.isFinite, rate >= lowest, rate <= 1000 else {
            throw ValidationError("--rate must be between \(number(lowest, lowest < 1 ? 1 : 0)) and 1000 samples per second, not \(rate)")
        }
    }
}
