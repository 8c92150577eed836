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
}
