import ArgumentParser
import Foundation
import IMUBoards
import IMUBus
import IMUDrivers
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu probe`: which I²C buses there are, which chips answer on them, and the board profile
/// that matches.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Find the I²C buses, the motion chips on them and the board profile that matches.",
        discussion: """
            Scans like i2cdetect (a one-byte read or a quick write per address), then reads the \
            identity register of every address an IMU may use.

            Examples:
              imu probe
              imu probe --bus /dev/i2c-1 --json
              imu probe --sim --json
              imu probe --sim --board sim-9250
            """)

    @Option(help: "Probe only this bus (default: every /dev/i2c-*).")
    var bus: String?

    @Flag(help: "Probe the simulated IMU board (the digital twin) instead of hardware.")
    var sim = false

    @Option(help: "With --sim: the twin of this board (default: sim; e.g. sim-9250, gy-9250).")
    var board: String?

    @Flag(help: "Print JSON for programs instead of text.")
    var json = false

    func validate() throws {
        if board != nil && !sim { throw ValidationError("--board is for --sim: a real bus is probed as it is") }
    }

    func run() throws {
        let reports = try Hardware.survey(sim: sim, bus: bus, board: board)
        if json {
            print(ProbeReport.json(reports))
        } else {
            print(ProbeReport.text(reports), terminator: "")
        }
    }
}

/// One bus as `imu probe` reports it: the survey plus the board profiles it suggests.
struct ProbedBus {
    var survey: BusSurvey
    /// Board profile names that match what was found, best first.
    var boards: [String]
    /// The computer this runs on, when known (`raspberry-pi-4`).
    var computer: String?
}

enum ProbeReport {
    static func text(_ buses: [ProbedBus]) -> String {
        var text = ""
        for probed in buses {
            let s = probed.survey
            text += s.bus + (s.adapter.map { " (\($0))" } ?? "") + ": "
            text += s.addresses.isEmpty ? "no device answered\n" : s.addresses.map(hex).joined(separator: " ") + "\n"
            for chip in s.chips {
                var where_ = hex(chip.address)
                if let m = chip.magnetometerAddress { where_ += " + " + (chip.magnetometerPart.map { "\($0) magnetometer " } ?? "magnetometer ") + hex(m) }
                text += "  \(chip.part.padding(9)) at \(where_): \(chip.capabilities.joined(separator: ", "))\n"
                if let clone = chip.clone { text += "    a clone: \(clone)\n" }
            }
            for part in s.unsupported {
                text += "  \(part.part.padding(9)) at \(hex(part.address)): recognised (WHO_AM_I \(hex(part.whoAmIValue))) but not supported by imu\n"
            }
            // i2cdetect's UU: a chip is there, but a kernel driver has it.
            for claim in s.claimed {
                text += "  \("UU".padding(9)) at \(hex(claim.address)): \(claim.message)\n"
            }
            if !probed.boards.isEmpty {
                text += "  board: " + probed.boards.joined(separator: " or ") + " (use --board \(probed.boards[0]))\n"
            } else if !s.chips.isEmpty {
                text += "  board: no profile matches; the chip is read with its axes as the device's\n"
            }
        }
        if buses.isEmpty { text += "no I²C bus\n" }
        return text
    }

    static func json(_ buses: [ProbedBus]) -> String {
        let object: [String: Any] = [
            "buses": buses.map { probed -> [String: Any] in
                let s = probed.survey
                var bus: [String: Any] = [
                    "bus": s.bus,
                    "addresses": s.addresses.map(hex),
                    "chips": s.chips.map { chip -> [String: Any] in
                        var c: [String: Any] = [
                            "name": chip.model.rawValue,
                            "address": hex(chip.address),
                            "capabilities": chip.capabilities,
                        ]
                        if let m = chip.magnetometerAddress { c["magnetometerAddress"] = hex(m) }
                        if let part = chip.magnetometerPart { c["magnetometerPart"] = part }
                        // The part when it is not the model's own name (an MPU-9255, a clone).
                        if chip.part != chip.model.rawValue { c["part"] = chip.part }
                        if let clone = chip.clone { c["clone"] = clone }
                        return c
                    },
                    "unsupported": s.unsupported.map { part -> [String: Any] in
                        ["name": part.part, "address": hex(part.address), "whoAmI": hex(part.whoAmIValue)]
                    },
                    "boards": probed.boards,
                ]
                if let adapter = s.adapter { bus["adapter"] = adapter }
                if !s.claimed.isEmpty {
                    bus["claimed"] = s.claimed.map { ["address": hex($0.address), "message": $0.message] }
                }
                if let computer = probed.computer { bus["computer"] = computer }
                return bus
            }
        ]
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
