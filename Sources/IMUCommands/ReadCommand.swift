import ArgumentParser
import IMUBoards
import IMUBus
import IMUDrivers
import IMUDevices
import IMUEngine
import IMUFormats

extension SampleFormat: ExpressibleByArgument {}

/// `imu read`: the chip's readings in physical units, at a chosen rate.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print the IMU's readings in physical units (g, rad/s, µT, °C).", usage: "imu read [--sim [<scenario>]] [--board <board>] [--rate <hz>] [<options>]",
        discussion: """
            Acceleration follows Core Motion: in g, gravity pointing down (lying face up reads z = -1). \
            Axes are the device's (x right, y top, z out of the component side), after the board's mounting.

            Examples:
              imu read --sim                         the simulated IMU, lying still face up
              imu read --sim seed-sequence --count 60 --format csv > log.csv
              imu read --board sense-hat --rate 50 --format jsonl
            """)

    @OptionGroup var source: IMUSourceOptions

    @Flag(help: "List the --sim scenarios and exit.")
    var listScenarios = false

    @Option(parsing: .unconditional, help: "Samples per second (the chip is set to its nearest rate).")
    var rate: Double = 10

    @Option(parsing: .unconditional, help: "Stop after this many samples (default: run until Ctrl-C).")
    var count: Int?

    @Option(help: "Output format: table, csv or jsonl.")
    var format: SampleFormat = .table

    func validate() throws {
        guard rate.isFinite, rate >= 0.1, rate <= 1000 else {
            throw ValidationError("--rate must be between 0.1 and 1000 samples per second, not \(rate)")
        }
        if let count, count < 1 {
            throw ValidationError("--count must be at least 1, not \(count)")
        }
    }

    func run() throws {
        if listScenarios {
            for (name, summary) in Hardware.scenarios { print(name.padding(20) + summary) }
            return
        }
        StopSignal.install()
        let session = try source.open()
        try SampleReader(session: session, rate: rate, count: count, format: format).run()
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
