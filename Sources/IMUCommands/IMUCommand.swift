import ArgumentParser
import Foundation
import IMUDevices
import IMUDrivers
import IMUEngine
import IMUFormats

/// `imu`: Core Motion for Linux boards.
public struct IMUCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "imu",
        abstract: "Read, calibrate and fuse motion chips on Linux boards: \(IMUCommand.supportedParts).",
        version: IMUCommand.version,
        subcommands: [
            ProbeCommand.self, ReadCommand.self, RecordCommand.self, PlotCommand.self, ReplayCommand.self, StreamCommand.self,
            EventsCommand.self, DemoCommand.self, CalibrateCommand.self, RunCommand.self, TokenCommand.self, BenchCommand.self, SoakCommand.self,
        ]
    )
    public init() {}

    /// Every part a driver reads, from the parts table (so a new row names itself here): the
    /// makers' names of the accel/gyro parts, then the magnetometers that are dies of their own.
    static let supportedParts: String = {
        var parts: [String] = [], magnetometers: [String] = []
        for part in ChipParts.all {
            for identity in part.identities where identity.clone == nil && !parts.contains(identity.part) { parts.append(identity.part) }
            if let die = part.magnetometer, !parts.contains(die.part), !magnetometers.contains(die.part) { magnetometers.append(die.part) }
        }
        return parts.joined(separator: ", ") + (magnetometers.isEmpty ? "" : " with " + magnetometers.joined(separator: ", "))
    }()

    /// `imu --version`: raised with every release (the lead's call).
    public static let version = "imu \(IMUVersion.current)"

    /// ArgumentParser's main, with Foundation's file errors put in words ("cannot read X: is a
    /// directory") instead of `Error Domain=NSCocoaErrorDomain Code=256 "(null)"`.
    public static func main() {
        do {
            if let unknown = DemoCommand.unknownDemo(in: Array(CommandLine.arguments.dropFirst())) { throw unknown }
            var command = try parseAsRoot()
            try command.run()
        } catch let error as NSError where error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain {
            exit(withError: CommandError(ReadableError.describe(error)))
        } catch {
            exit(withError: error)
        }
    }
}
