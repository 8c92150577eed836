import Foundation
import IMUDrivers
import IMUGeometry

/// Reads a replay log (what `imu read --format csv` prints) one sample at a time, so a long
/// recording streams through in constant memory. Use `ReplayLog.read` to get all of it at once,
/// or an error and nothing.
///
/// Rows that cannot be samples never reach the caller: NaN/infinite or out-of-range values and
/// timestamps that do not increase are skipped and counted in `report`; a truncated last line
/// (no newline, incomplete) too; malformed rows stop the reading with `file:line: what was
/// expected`, unless the options say to skip them.
public final class ReplayLogReader {
    /// The file name errors carry.
    public let name: String
    public let options: ReplayLogOptions
    /// The `#` lines before the header.
    public let metadata: LogMetadata
    /// The header's column names, in file order.
    public var columnNames: [String] { columns.names }
    /// What has been read so far; complete once `next()` has returned nil.
    public private(set) var report = ReplayLogReport()

    private let lines: LineReader
    private let columns: ReplayColumns
    private var lastTime: Double?

    public convenience init(path: String, options: ReplayLogOptions = ReplayLogOptions()) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "cannot be read (permission denied)" : "no such file"
            throw LogError(file: path, line: 0, message: why)
        }
        try self.init(lines: LineReader(path: path), name: path, options: options)
    }

    /// A log already in memory; `name` is what errors call it.
    public convenience init(text: String, name: String, options: ReplayLogOptions = ReplayLogOptions()) throws {
        try self.init(lines: LineReader(text: text), name: name, options: options)
    }

    /// Reads the `#` lines and the header.
    init(lines: LineReader, name: String, options: ReplayLogOptions) throws {
        self.lines = lines
        self.name = name
        self.options = options
        var metadata = LogMetadata()
        var lastLine = 0
        while let line = try Self.nextLine(lines, name: name) {
            lastLine = line.number
            if line.text.hasPrefix("#") {
                metadata.add(commentLine: line.text)
            } else if !Self.isBlank(line.text) {
                self.metadata = metadata
                columns = try ReplayColumns(header: line.text, file: name, line: line.number)
                return
            }
        }
        throw LogError(
            file: name, line: max(lastLine, 1),
            message: "expected the header \"\(ReplayColumns.expectedHeader)\", but the file ends before it")
    }

    /// The next good sample, or nil at the end of the log.
    public func next() throws -> MotionSample? {
        while let line = try Self.nextLine(lines, name: name) {
            if line.text.hasPrefix("#") || Self.isBlank(line.text) { continue }
            report.rows += 1
            let sample: MotionSample
            do {
                sample = try parse(line)
            } catch let error as LogError {
                if !line.terminated {
                    let why = "the last line has no newline and is incomplete (\(error.column.map { "column \($0): " } ?? "")\(error.message))"
                    report.skip(.truncatedLastLine, LogError(file: name, line: line.number, message: why))
                } else if options.malformedRows == .skip {
                    report.skip(.malformedRow, error)
                } else {
                    throw error
                }
                continue
            }
            if let (reason, why) = refusal(of: sample, line: line.number) {
                report.skip(reason, why)
                continue
            }
            lastTime = sample.timestamp
            report.samples += 1
            return sample
        }
        return nil
    }

    /// The row as a sample, values unchecked; throws when it is not a row of numbers.
    private func parse(_ line: LineReader.Line) throws -> MotionSample {
        let fields = Fields.split(line.text)
        guard fields.count == columns.names.count else {
            throw LogError(
                file: name, line: line.number,
                message: "expected \(columns.names.count) fields (\(columns.names.joined(separator: ","))), got \(fields.count)")
        }
        func number(_ index: Int, or alternative: String = "") throws -> Double {
            guard let value = Fields.number(fields[index]) else {
                throw LogError(
                    file: name, line: line.number, column: columns.names[index],
                    message: "expected a number\(alternative), got \(Fields.quoted(fields[index]))")
            }
            return value
        }
        func vector(_ i: (Int, Int, Int), or alternative: String = "") throws -> Vector3 {
            Vector3(try number(i.0, or: alternative), try number(i.1, or: alternative), try number(i.2, or: alternative))
        }
        let m = columns.magneticField
        let noMagnetometer = fields[m.0].isEmpty && fields[m.1].isEmpty && fields[m.2].isEmpty
        return MotionSample(
            timestamp: try number(columns.time),
            acceleration: try vector(columns.acceleration),
            rotationRate: try vector(columns.rotationRate),
            magneticField: noMagnetometer ? nil : try vector(m, or: " (or all three mag fields empty)"),
            temperature: try columns.temperature.flatMap { fields[$0].isEmpty ? nil : try number($0) })
    }

    /// Why a parsed sample must not be used, or nil when it is fine.
    private func refusal(of s: MotionSample, line: Int) -> (SkipReason, LogError)? {
        func why(_ reason: SkipReason, _ column: String?, _ message: String) -> (SkipReason, LogError) {
            (reason, LogError(file: name, line: line, column: column, message: message))
        }
        let values: [(String, Double?)] = [
            ("t", s.timestamp),
            ("acc_x", s.acceleration.x), ("acc_y", s.acceleration.y), ("acc_z", s.acceleration.z),
            ("gyr_x", s.rotationRate.x), ("gyr_y", s.rotationRate.y), ("gyr_z", s.rotationRate.z),
            ("mag_x", s.magneticField?.x), ("mag_y", s.magneticField?.y), ("mag_z", s.magneticField?.z),
            ("temp_c", s.temperature),
        ]
        if let (column, value) = values.first(where: { $0.1.map { !$0.isFinite } ?? false }) {
            return why(.nonFinite, column, "\(value!) is not a finite number")
        }
        let acc = s.acceleration.length, gyr = s.rotationRate.length, mag = s.magneticField?.length ?? 0
        if acc > options.maxAcceleration {
            return why(.outOfRange, nil, "|acc| = \(acc) g is beyond the \(options.maxAcceleration) g limit")
        }
        if gyr > options.maxRotationRate {
            return why(.outOfRange, nil, "|gyr| = \(gyr) rad/s is beyond the \(options.maxRotationRate) rad/s limit")
        }
        if mag > options.maxMagneticField {
            return why(.outOfRange, nil, "|mag| = \(mag) µT is beyond the \(options.maxMagneticField) µT limit")
        }
        if let lastTime, s.timestamp <= lastTime {
            let reason: SkipReason = s.timestamp == lastTime ? .duplicateTimestamp : .timestampBackwards
            return why(reason, "t", "t = \(s.timestamp) s is not after the previous sample's \(lastTime) s")
        }
        return nil
    }

    /// The next line, with an over-long one refused as an error of this file.
    private static func nextLine(_ lines: LineReader, name: String) throws -> LineReader.Line? {
        do {
            return try lines.next()
        } catch let tooLong as LineReader.LineTooLong {
            throw LogError(
                file: name, line: tooLong.line,
                message: "the line is longer than \(tooLong.limit / 1024) KiB; a log row is a few hundred bytes (is this a replay log?)")
        }
    }

    private static func isBlank(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " || $0 == "\t" }
    }
}
