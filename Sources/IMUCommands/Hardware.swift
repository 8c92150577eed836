import IMUBoards
import IMUBus
import IMUDrivers
import IMULinux
import IMUTwin

/// An IMU ready to read: the bus, the chip's driver and where the chip sits on its board.
struct HardwareSession {
    let bus: any I2CBus
    let clock: any MonotonicClock
    let board: BoardProfile
    let placement: IMUPlacement
    let driver: any IMUDriver
    /// The digital twin behind `bus` with `--sim` (kept alive for the session).
    let twin: VirtualBoard?
}

/// Where the command line meets hardware: the simulated board (`--sim`) or `/dev/i2c-N`.
enum Hardware {
    /// `--sim` scenarios: name and one line about each.
    static var scenarios: [(String, String)] {
        MotionScenarios.all.map { ($0.name, $0.summary) }
    }

    static func catalog() -> BoardCatalog { BoardCatalog.standard() }

    static func profile(named name: String) throws -> BoardProfile {
        do {
            return try catalog().profile(named: name)
        } catch {
            throw CommandError("\(error)")
        }
    }

    // MARK: imu read

    static func open(
        sim: Bool, scenario: String?, errors: String = "typical", board: String?, bus: String?, virtualTime: Bool
    ) throws -> HardwareSession {
        if sim {
            return try openSimulated(
                scenario: scenario ?? "still", errors: errors, board: board ?? "sim", virtualTime: virtualTime)
        }
        return try openLinux(board: board, bus: bus)
    }

    /// The twin of `board` (the `sim` board unless another is named), moving through `scenario`.
    static func openSimulated(scenario name: String, errors: String, board: String, virtualTime: Bool) throws -> HardwareSession {
        guard let scenario = MotionScenarios.named(name) else {
            throw CommandError("no scenario '\(name)'; the scenarios are: \(MotionScenarios.names.joined(separator: ", "))")
        }
        return try openSimulated(scenario: scenario, errors: errors, board: board, virtualTime: virtualTime)
    }

    /// The twin of `board` moving through `scenario` (one of the named ones or any other).
    static func openSimulated(scenario: any MotionScenario, errors: String, board: String, virtualTime: Bool) throws -> HardwareSession {
        guard let errorModel = SensorErrorModel.named(errors) else {
            throw CommandError("no error model '\(errors)'; choose one of: \(SensorErrorModel.all.map(\.name).joined(separator: ", "))")
        }
        let profile = try profile(named: board)
        guard let placement = profile.imus.first else {
            throw CommandError("the board '\(profile.name)' carries no IMU (it is a computer profile); name a hat, e.g. --board sense-hat")
        }
        let clock: any MonotonicClock = virtualTime ? VirtualClock() : RealTimeClock()
        let twin = VirtualBoard(profile: profile, scenario: scenario, errors: errorModel, seed: 1, clock: clock)
        return HardwareSession(
            bus: twin.bus, clock: clock, board: profile, placement: placement,
            driver: placement.makeDriver(bus: twin.bus, clock: clock), twin: twin)
    }

    /// A real bus: the one named, else the computer profile's header bus, else the first bus
    /// where a supported chip answers. The board is the one named, else the best match.
    static func openLinux(board: String?, bus busPath: String?) throws -> HardwareSession {
        let clock = LinuxMonotonicClock()
        let named = try board.map(profile(named:))
        if let named, named.imus.isEmpty {
            throw CommandError("the board '\(named.name)' carries no IMU (it is a computer profile); name a hat, e.g. --board sense-hat")
        }
        let candidates: [String]
        if let busPath {
            candidates = [busPath]
        } else {
            let available = LinuxI2CBus.availableBuses().map(\.path)
            guard !available.isEmpty else { throw CommandError.noI2CBus }
            let header = (try? catalog().computerProfile())??.i2cBus.map { "/dev/i2c-\($0)" }
            candidates = header.map { h in [h] + available.filter { $0 != h } } ?? available
        }

        var lastError: String?
        for path in candidates {
            let bus: LinuxI2CBus
            do { bus = try LinuxI2CBus(path: path) } catch {
                lastError = error.description
                continue
            }
            if let named {
                let placement = named.imus[0]
                return HardwareSession(
                    bus: bus, clock: clock, board: named, placement: placement,
                    driver: placement.makeDriver(bus: bus, clock: clock), twin: nil)
            }
            let survey: BusSurvey
            do { survey = try BusSurvey.survey(bus) } catch {
                lastError = error.description
                continue
            }
            guard let chip = survey.chips.first else {
                lastError = "no supported IMU on \(path)" + (survey.unsupported.first.map { " (found an \($0.part) at \(hex($0.address)), which imu does not drive)" } ?? "")
                continue
            }
            let (profile, placement) = bestProfile(for: survey, chip: chip)
            return HardwareSession(
                bus: bus, clock: clock, board: profile, placement: placement,
                driver: placement.makeDriver(bus: bus, clock: clock), twin: nil)
        }
        throw CommandError(lastError ?? "no supported IMU found")
    }

    /// The best-matching hat profile for what a survey found, or a profile made on the spot
    /// for the chip alone (mounted as the device).
    static func bestProfile(for survey: BusSurvey, chip: FoundChip) -> (BoardProfile, IMUPlacement) {
        if let name = suggestions(for: survey).first,
           let profile = try? catalog().profile(named: name),
           let placement = profile.imus.first(where: { $0.address == chip.address }) {
            return (profile, placement)
        }
        let placement = IMUPlacement(chip: chip.model, address: chip.address, magnetometerAddress: chip.magnetometerAddress)
        let profile = BoardProfile(name: "detected", title: "\(chip.model.rawValue) (no board profile)", kind: .hat, imus: [placement])
        return (profile, placement)
    }

    /// Hat profiles that fit a survey, best first (real hats only; the twin's own board is
    /// suggested only on the twin's bus).
    static func suggestions(for survey: BusSurvey) -> [String] {
        var detected = survey.addresses.map { DetectedDevice(address: $0) }
        for chip in survey.chips {
            for address in [chip.address] + (chip.magnetometerAddress.map { [$0] } ?? []) {
                if let i = detected.firstIndex(where: { $0.address == address }) { detected[i].chip = chip.model }
            }
        }
        let profiles = ((try? catalog().allProfiles()) ?? []).filter { $0.kind == .hat }
        let ranked = BoardDetection.suggestions(for: detected, among: profiles)
        guard let best = ranked.first else { return [] }
        return ranked.filter { $0.ties(with: best) }.map(\.name)
    }

    // MARK: imu probe

    static func survey(sim: Bool, bus busPath: String?) throws -> [ProbedBus] {
        if sim {
            let profile = try profile(named: "sim")
            let twin = VirtualBoard(
                profile: profile, scenario: MotionScenarios.named("still")!, errors: .typical, seed: 1, clock: VirtualClock())
            let survey = try surveyed(twin.bus, adapter: profile.title)
            return [ProbedBus(survey: survey, boards: [profile.name], computer: nil)]
        }
        let paths = busPath.map { [$0] } ?? LinuxI2CBus.availableBuses().map(\.path)
        guard !paths.isEmpty else { throw CommandError.noI2CBus }
        let names = Dictionary(LinuxI2CBus.availableBuses().map { ($0.path, $0.adapterName) }, uniquingKeysWith: { a, _ in a })
        let computer = (try? catalog().computerProfile()).flatMap { $0?.name }
        var reports: [ProbedBus] = []
        for path in paths {
            do {
                let bus = try LinuxI2CBus(path: path)
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
