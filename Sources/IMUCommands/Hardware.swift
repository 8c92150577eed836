import IMUBoards
import IMUBus
import IMUDrivers
import IMUKit
import IMULinux
import IMUTwin
import IMUDevices
import IMUEngine
import IMUFormats

/// Where the command line meets hardware: the simulated board (`--sim`) or `/dev/i2c-N`.
enum Hardware {
    /// `--sim` scenarios: name and one line about each.
    static var scenarios: [(String, String)] {
        MotionScenarios.all.map { ($0.name, $0.summary) }
    }

    static func catalog() -> BoardCatalog { BoardCatalog.standard() }

    static func profile(named name: String) throws -> BoardProfile {
        return try CommandError.wrapping { try catalog().profile(named: name) }
    }

    // MARK: imu read

    static func open(
        sim: Bool, scenario: String?, errors: String = "typical", board: String?, bus: String?, virtualTime: Bool
    ) throws -> IMUDevice {
        if sim {
            return try openSimulated(
                scenario: scenario ?? "still", errors: errors, board: board ?? "sim", virtualTime: virtualTime)
        }
        return try openLinux(board: board, bus: bus)
    }

    /// The twin of `board` (the `sim` board unless another is named), moving through `scenario`.
    static func openSimulated(scenario name: String, errors: String, board: String, virtualTime: Bool) throws -> IMUDevice {
        guard let scenario = MotionScenarios.named(name) else {
            throw CommandError("no scenario '\(name)'; the scenarios are: \(MotionScenarios.names.joined(separator: ", "))")
        }
        return try openSimulated(scenario: scenario, errors: errors, board: board, virtualTime: virtualTime)
    }

    /// The twin of `board` moving through `scenario` (one of the named ones or any other).
    static func openSimulated(scenario: any MotionScenario, errors: String, board: String, virtualTime: Bool) throws -> IMUDevice {
        guard let errorModel = SensorErrorModel.named(errors) else {
            throw CommandError("no error model '\(errors)'; choose one of: \(SensorErrorModel.all.map(\.name).joined(separator: ", "))")
        }
        do {
            return try SimulatedHardware.open(
                profile: try profile(named: board), scenario: scenario, errors: errorModel,
                clock: virtualTime ? VirtualClock() : RealTimeClock())
        } catch let error as HardwareOpenError {
            throw CommandError(error.description + ", e.g. --board sense-hat")
        }
    }

    /// A real bus: the one named, else the computer profile's header bus, else the first bus
    /// where a supported chip answers. The board is the one named, else the best match
    /// (`LinuxHardware`, which the motion manager opens hardware with too).
    static func openLinux(board: String?, bus busPath: String?) throws -> IMUDevice {
        do throws(HardwareOpenError) {
            return try LinuxHardware.open(board: board, bus: busPath, catalog: catalog())
        } catch .noI2CBus {
            throw CommandError.noI2CBus
        } catch .boardWithoutIMU(let name) {
            throw CommandError("the board '\(name)' carries no IMU (it is a computer profile); name a hat, e.g. --board sense-hat")
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// Hat profiles that fit a survey, best first.
    static func suggestions(for survey: BusSurvey) -> [String] {
        catalog().hatSuggestions(for: survey)
    }

    // MARK: imu probe

    static func survey(sim: Bool, bus busPath: String?, board: String? = nil) throws -> [ProbedBus] {
        if sim {
            let profile = try profile(named: board ?? "sim")
            let twin = VirtualBoard(
                profile: profile, scenario: MotionScenarios.named("still")!, errors: .typical, seed: 1, clock: VirtualClock())
            let survey = try surveyed(twin.bus, adapter: profile.title)
            return [ProbedBus(survey: survey, boards: [profile.name], computer: nil)]
        }
        let paths = busPath.map { [$0] } ?? LinuxI2CBus.availableBuses().map(\.path)
        guard !paths.isEmpty else { throw CommandError.noI2CBus }
        let names = Dictionary(LinuxI2CBus.availableBuses().map { ($0.path, $0.adapterName) }, uniquingKeysWith: { a, _ in a })
        let computer = (try? catalog().thisComputer()).flatMap { $0?.name }
        var reports: [ProbedBus] = []
        for path in paths {
            do {
                let bus: LinuxI2CBus
                do { bus = try LinuxI2CBus(path: path) } catch { throw CommandError(LinuxHardware.message(for: error)) }
                let survey = try surveyed(bus, adapter: names[path] ?? nil)
                reports.append(ProbedBus(survey: survey, boards: suggestions(for: survey), computer: computer))
            } catch {
                // One bus we may not open (permission, gone) should not hide the others.
                if paths.count == 1 { throw error }
                printToStandardError("imu: \(error)")
            }
        }
        return reports
    }

    private static func surveyed(_ bus: any I2CBus, adapter: String?) throws -> BusSurvey {
        do {
            return try BusSurvey.survey(bus, adapter: adapter)
        } catch {
            throw CommandError(error.description)
        }
    }
}
