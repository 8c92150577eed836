import ArgumentParser

/// `imu`: Core Motion for Linux boards.
public struct IMUCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "imu",
        abstract: "Read, calibrate and fuse MPU-6050 and LSM9DS1 motion chips on Linux boards.",
        subcommands: [
            ProbeCommand.self, ReadCommand.self, RecordCommand.self, PlotCommand.self, ReplayCommand.self, StreamCommand.self,
            EventsCommand.self, DemoCommand.self, CalibrateCommand.self, RunCommand.self, BenchCommand.self, SoakCommand.self,
        ]
    )
    public init() {}
}
