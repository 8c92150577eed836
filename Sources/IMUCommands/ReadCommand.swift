import ArgumentParser
import IMUBoards
import IMUBus
import IMUDrivers
import IMUDevices
import IMUEngine
import IMUFormats
import IMUShare

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

    @OptionGroup var daemon: DaemonSourceOptions

    @Flag(help: "List the --sim scenarios and exit.")
    var listScenarios = false

    @Flag(help: "List the board profiles --board takes (with their IMU chips) and exit.")
    var listBoards = false

    @Option(parsing: .unconditional, help: "Samples per second (the chip is set to its nearest rate).")
    var rate: Double = 10

    @Option(parsing: .unconditional, help: "Stop after this many samples (default: run until Ctrl-C).")
    var count: Int?

    @Option(help: "Output format: table, csv or jsonl.")
    var format: SampleFormat = .table

    func validate() throws {
        try SampleRateOption.validate(rate, lowest: 0.1)
        if let count, count < 1 {
            throw ValidationError("--count must be at least 1, not \(count)")
        }
    }

    func run() throws {
        if listScenarios {
            for (name, summary) in Hardware.scenarios { print(name.padding(20) + summary) }
            return
        }
        if listBoards {
            let profiles = try BoardCatalog.standard().allProfiles().filter { $0.kind != .computer }
            let width = (profiles.map(\.name.count).max() ?? 0) + 2
            for profile in profiles {
                let chips = profile.imus.map { imu in
                    imu.chip.rawValue + " " + hex(imu.address)
                        + (imu.magnetometerAddress.map { " + " + (imu.chip.part.magnetometer?.isSeparateChip == true ? "\(imu.chip.part.magnetometer!.part) " : "magnetometer ") + hex($0) } ?? "")
                }
                print(profile.name.padding(width) + profile.title + " (" + chips.joined(separator: "; ") + ")")
            }
            return
        }
        StopSignal.install()
        if let path = daemon.daemonSocket(hardwareChosen: source.sim || source.board != nil || source.bus != nil) {
            try relay(from: path)
            return
        }
        let session = try source.open()
        try SampleReader(session: session, rate: rate, count: count, format: format).run()
    }

    /// Raw samples from the daemon, at its rate: its JSON lines as they are, the same columns
    /// as CSV, or the table (the header from its hello: chip, bus, board and rate).
    func relay(from path: String) throws {
        var output = LineOutput()
        defer { output.flush() }
        let formatter = SampleFormatter(format)
        if format == .csv { output.write(SampleFormatter.csvColumns.joined(separator: ",")) }
        try DaemonRelay.run(
            path: path, subscribe: SubscribeOptions(stream: .samples), count: count,
            started: { hello in
                guard format == .table else { return }
                func text(_ key: String) -> String { if case .string(let s)? = hello[key] { s } else { "?" } }
                var rate = 0.0
                if case .number(let hz)? = hello["rate_hz"] { rate = hz }
                let source = SampleSource(chip: text("chip"), board: text("board"), bus: text("bus"), rateHz: rate)
                for line in formatter.header(for: source) { output.write(line) }
            },
            flush: { output.flushIfDue() }
        ) { line in
            switch format {
            case .jsonl: output.write(line)
            case .csv: if let row = csvRow(jsonLine: line, columns: SampleFormatter.csvColumns) { output.write(row) }
            case .table: if let sample = MotionSample(sampleLine: line) { output.write(formatter.line(for: sample)) }
            }
        }
        try output.finish()
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
