import Foundation
import IMUConfigFile
import IMUGeometry

/// The learned offsets' file: `<calibration directory>/learned/<chip's file name>`, e.g.
/// `/var/lib/imu/learned/mpu-6050-gy-521-i2c-1-0x68.toml` for the service. A subdirectory, so
/// that `imu calibrate show` (every `*.toml` in the directory) never takes it for a
/// calibration. Written atomically (`AtomicFile`): a crash or power cut leaves the old file or
/// the new one, never half of one. A damaged file throws a `CalibrationFileError` naming file,
/// line and what was expected; the caller starts from nothing and overwrites it at its next save.
public enum LearnedGyroOffsetsStore {
    public static let currentVersion = 1
    public static let subdirectory = "learned"

    /// Where `chip`'s learned offsets live in `directory` (a calibration directory).
    public static func path(for chip: ChipIdentity, in directory: String) -> String {
        CalibrationDirectory.join(CalibrationDirectory.join(directory, subdirectory), chip.fileName)
    }

    /// The chip's learned offsets from `directory`; nil when there is no file.
    public static func load(_ chip: ChipIdentity, from directory: String) throws(CalibrationFileError) -> LearnedGyroOffsets? {
        let path = path(for: chip, in: directory)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CalibrationFileError(file: path, line: 0, message: "cannot read the learned gyro offsets")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CalibrationFileError(file: path, line: 0, message: "the learned gyro offsets are not UTF-8 text (damaged?)")
        }
        return try parse(text, file: path, expecting: chip)
    }

    /// Saves atomically, creating the directories; returns the path.
    @discardableResult
    public static func save(_ offsets: LearnedGyroOffsets, for chip: ChipIdentity, in directory: String) throws(CalibrationFileError) -> String {
        let path = path(for: chip, in: directory)
        let folder = CalibrationDirectory.join(directory, subdirectory)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CalibrationFileError(file: folder, line: 0, message: "cannot create the directory: \(error.localizedDescription)")
        }
        try AtomicFile.write(text(offsets, chip: chip), to: path)
        return path
    }

    /// The file's text: TOML, one `[[bin]]` per temperature bin, coolest first; `bins` counts
    /// them so a file cut short between two bins is refused rather than read as fewer bins.
    public static func text(_ offsets: LearnedGyroOffsets, chip: ChipIdentity) -> String {
        var lines = [
            "# Gyro zero-rate offsets imu learned at rest for \(chip), per chip temperature.",
            "# Written by the running filter; delete the file to forget them. Units: rad/s, °C, s.",
            "version = \(currentVersion)",
            "bins = \(offsets.bins.count)",
            "",
            "[chip]",
            "type = \(tomlString(chip.chip))",
            "board = \(tomlString(chip.board))",
            "bus = \(tomlString(chip.bus))",
            "address = \(chip.hexAddress)",
        ]
        for index in offsets.bins.keys.sorted() {
            let bin = offsets.bins[index]!
            lines += [
                "", "[[bin]]",
                "temperature-celsius = \(tomlNumber(bin.temperatureCelsius))",
                "offset-rad-s = \(tomlVector(bin.offsetRadiansPerSecond))",
                "seconds = \(tomlNumber(bin.seconds))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads the text; every value is checked before anything is returned.
    public static func parse(
        _ text: String, file: String, expecting chip: ChipIdentity? = nil
    ) throws(CalibrationFileError) -> LearnedGyroOffsets {
        try LearnedGyroOffsetsDecoder(text: text, file: file).decode(expecting: chip)
    }
}

struct LearnedGyroOffsetsDecoder: TOMLSchemaDecoder {
    let file: String
    let locator: TOMLLocator
    static let expected: [String: String] = [
        "version": "an integer (the format's version)", "bins": "an integer (how many [[bin]] tables follow)",
        "type": "a string (the part)", "board": "a string", "bus": "a string", "address": "an integer like 0x6a",
        "temperature-celsius": "a number (°C)", "seconds": "a number (s)",
    ]

    init(text: String, file: String) throws(CalibrationFileError) {
        self.file = file
        do {
            locator = TOMLLocator(root: try TOML.parse(text))
        } catch {
            throw CalibrationFileError(
                file: file, line: error.position.line, column: error.position.column,
                message: "TOML syntax error: \(error.message) (the file is damaged or was cut short)")
        }
    }

    func decode(expecting expected: ChipIdentity?) throws(CalibrationFileError) -> LearnedGyroOffsets {
        let root = locator.root
        try checkKeys(root, allowed: ["version", "bins", "chip", "bin"], table: nil, index: nil, what: "the file")
        let version = try integer(root, "version", required: true)!
        guard version == LearnedGyroOffsetsStore.currentVersion else {
            throw error(
                "learned-offsets format version \(version); this imu reads version \(LearnedGyroOffsetsStore.currentVersion)",
                key: "version")
        }
        let count = try integer(root, "bins", required: true)!
        guard let chipValue = root["chip"], let chipTable = chipValue.table else {
            throw error("missing table [chip] (the chip these offsets belong to)")
        }
        try checkKeys(chipTable, allowed: ["type", "board", "bus", "address"], table: "chip", index: nil, what: "[chip]")
        let address = try integer(chipTable, "address", required: true, table: "chip")!
        guard (0...0x7F).contains(address) else {
            throw error("`address` in [chip] must be a 7-bit I²C address like 0x6a", key: "address", table: "chip")
        }
        let chip = ChipIdentity(
            chip: try string(chipTable, "type", required: true, table: "chip")!,
            board: try string(chipTable, "board", required: true, table: "chip")!,
            bus: try string(chipTable, "bus", required: true, table: "chip")!, address: address)
        if let expected, expected != chip {
            throw error("these learned offsets are for \(chip), not \(expected)", table: "chip")
        }
        let tables = root["bin"] == nil ? [] : try tables(root, "bin")
        guard tables.count == count else {
            throw error("`bins` says \(count) but the file has \(tables.count) [[bin]] tables (cut short or damaged)", key: "bins")
        }
        var bins: [Int: LearnedGyroOffsets.Bin] = [:]
        let limit = GyroBiasEstimator.plausibleBiasRadiansPerSecond
        let range = LearnedGyroOffsets.temperatureRange
        for (i, t) in tables.enumerated() {
            try checkKeys(t, allowed: ["temperature-celsius", "offset-rad-s", "seconds"], table: "bin", index: i, what: "[[bin]]")
            let temperature = try number(t, "temperature-celsius", required: true, table: "bin", index: i)!
            guard temperature.isFinite, range.contains(temperature) else {
                throw error("`temperature-celsius` must be °C from −40 to 85", key: "temperature-celsius", table: "bin", index: i)
            }
            let seconds = try number(t, "seconds", required: true, table: "bin", index: i)!
            guard seconds.isFinite, seconds > 0, seconds <= LearnedGyroOffsets.binMemorySeconds else {
                throw error(
                    "`seconds` must be the rest time behind the bin, above 0 and at most \(tomlNumber(LearnedGyroOffsets.binMemorySeconds))",
                    key: "seconds", table: "bin", index: i)
            }
            let bad = error(
                "`offset-rad-s` must be an array of three numbers [x, y, z] in rad/s, each within ±0.52 (30 °/s)",
                key: "offset-rad-s", table: "bin", index: i)
            guard let array = t["offset-rad-s"]?.array, array.count == 3 else { throw bad }
            var offset = Vector3.zero
            for axis in 0..<3 {
                let v = array[axis]
                guard let d = v.type == .double ? v.double : v.int.map(Double.init), d.isFinite, abs(d) <= limit else { throw bad }
                offset[axis] = d
            }
            let index = LearnedGyroOffsets.binIndex(temperature)
            guard bins[index] == nil else {
                throw error("two [[bin]] tables for the same \(tomlNumber(LearnedGyroOffsets.binWidthCelsius)) °C bin",
                            key: "temperature-celsius", table: "bin", index: i)
            }
            bins[index] = LearnedGyroOffsets.Bin(temperatureCelsius: temperature, offsetRadiansPerSecond: offset, seconds: seconds)
        }
        return LearnedGyroOffsets(bins: bins)
    }
}
