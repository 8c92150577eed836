import ArgumentParser
import IMUDevices
import IMUEngine
import IMUFormats

/// `imu demo`: small programs that show what motion data is good for.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Demos of what motion data does: tilt to push.",
        subcommands: [TiltDemoCommand.self]
    )

    /// The demos' names.
    static var names: [String] { configuration.subcommands.map { $0._commandName } }

    /// `imu demo spin --sim` would be refused for its first option ("Unknown option '--sim'"),
    /// which hides the real mistake: the error for a name that is no demo, before parsing.
    static func unknownDemo(in arguments: [String]) -> ValidationError? {
        guard arguments.count >= 2, arguments[0] == configuration.commandName else { return nil }
        let name = arguments[1]
        guard !name.hasPrefix("-"), name != "help", !names.contains(name) else { return nil }
        return ValidationError("no demo named '\(name)'; the demos are: \(names.joined(separator: ", ")) (e.g. imu demo tilt --sim)")
    }
}
