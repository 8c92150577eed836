import IMUDrivers

/// A whole replay log in memory: its metadata, its good samples and the report of what was
/// skipped. Reading either returns all of that or throws; nothing is half-read.
public struct ReplayLog: Sendable {
    public var name: String
    public var metadata: LogMetadata
    public var columnNames: [String]
    public var samples: [MotionSample]
    public var report: ReplayLogReport

    /// Reads the file at `path` (errors name it as given).
    public static func read(path: String, options: ReplayLogOptions = ReplayLogOptions()) throws -> ReplayLog {
        try collect(ReplayLogReader(path: path, options: options))
    }

    /// Reads a log already in memory; `name` is what errors call it.
    public static func parse(
        _ text: String, name: String = "<log>", options: ReplayLogOptions = ReplayLogOptions()
    ) throws -> ReplayLog {
        try collect(ReplayLogReader(text: text, name: name, options: options))
    }

    static func collect(_ reader: ReplayLogReader) throws -> ReplayLog {
        var samples: [MotionSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return ReplayLog(
            name: reader.name, metadata: reader.metadata, columnNames: reader.columnNames, samples: samples,
            report: reader.report)
    }
}
