import IMUBoards
import IMUBus
import IMUCalibration
import IMUDrivers
import IMUEngine
import IMULinux

/// Opening a real IMU on Linux (/dev/i2c-N through libi2c).
public enum LinuxHardware {
    /// The IMU on `busPath` (else the computer profile's header bus, else the first bus where a
    /// supported chip answers), on the board profile named `board` (a name from Boards/ or a
    /// file; else the best match for what the bus holds).
    public static func open(
        board: String? = nil, bus busPath: String? = nil, catalog: BoardCatalog = .standard()
    ) throws(HardwareOpenError) -> IMUDevice {
        let clock = LinuxMonotonicClock()
        let named: BoardProfile?
        do { named = try board.map(catalog.profile(named:)) } catch { throw .boardProfile("\(error)") }
        if let named, named.imus.isEmpty { throw .boardWithoutIMU(named.name) }
        let candidates: [String]
        if let busPath {
            candidates = [busPath]
        } else {
            let available = LinuxI2CBus.availableBuses().map(\.path)
            guard !available.isEmpty else { throw .noI2CBus }
            let header = (try? catalog.thisComputer())??.i2cBus.map { "/dev/i2c-\($0)" }
            candidates = header.map { h in [h] + available.filter { $0 != h } } ?? available
        }

        // Every bus's reason, in the order tried (the header's bus first): the last one alone
        // would hide why the bus that holds the IMU was refused.
        var failures: [String] = []
        for path in candidates {
            // Reopened, found by its adapter's name, if the adapter is removed and comes back.
            let bus: ReopeningI2CBus
            do { bus = try LinuxI2CBus.reopening(path: path) } catch {
                failures.append(message(for: error))
                continue
            }
            if let named {
                let placement = named.imus[0]
                // The board's chip bound to a kernel driver: read through its IIO devices.
                if (bus as any ClaimedAddressReporting).claim(of: placement.address) != nil {
                    switch openThroughIIO(busPath: path, address: placement.address, board: named, survey: nil, catalog: catalog, clock: clock) {
                    case .device(let device)?: return device
                    case .refused(let words)?: failures.append(words); continue
                    case nil: break
                    }
                }
                return IMUDevice(
                    bus: bus, clock: clock, board: named, placement: placement, driver: placement.makeDriver(bus: bus, clock: clock))
            }
            let survey: BusSurvey
            do { survey = try BusSurvey.survey(bus) } catch {
                failures.append("\(path): \(error.description)")
                continue
            }
            guard let chip = survey.chips.first else {
                // No chip of ours to talk to; one a kernel driver has is read through IIO.
                var refused: String?
                for claim in survey.claimed {
                    switch openThroughIIO(busPath: path, address: claim.address, board: nil, survey: survey, catalog: catalog, clock: clock) {
                    case .device(let device)?: return device
                    case .refused(let words)?: refused = words
                    case nil: break
                    }
                }
                if let refused {
                    failures.append(refused)
                    continue
                }
                failures.append("no supported IMU on \(path)"
                    + (survey.unsupported.first.map { " (found an \($0.part) at \(hex($0.address)), which imu does not drive)" } ?? ""))
                continue
            }
            let (profile, placement) = catalog.bestProfile(for: survey, chip: chip)
            return IMUDevice(
                bus: bus, clock: clock, board: profile, placement: placement, driver: placement.makeDriver(bus: bus, clock: clock))
        }
        throw .notFound(failures.isEmpty ? "no supported IMU found" : failures.joined(separator: "; "))
    }

}
