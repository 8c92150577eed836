import Foundation
import IMUDrivers
import IMUGeometry

/// One row of a BROAD trial (see `../shared/datasets/broad/README.md`), in the project's units
/// and signs: acceleration converted from specific force in m/s² to Core Motion's g with gravity
/// pointing down (`−acc / 9.81`); gyroscope in rad/s and magnetometer in µT as recorded.
public struct BROADRow: Sendable, Equatable {
    public var t: Double
    public var rotationRate: Vector3
    public var acceleration: Vector3
    public var magneticField: Vector3
    /// Part of a movement phase: the metric counts only these rows.
    public var movement: Bool
    /// The optical ground truth (sensor → ENU earth frame), nil where the markers were lost.
    public var truth: Quaternion?

    /// The row as what a chip would have delivered.
    public var sample: MotionSample {
        MotionSample(timestamp: t, acceleration: acceleration, rotationRate: rotationRate, magneticField: magneticField)
    }
}

/// A BROAD trial file: the shared reader for benchmarks and tests (the data itself stays in
/// `../shared/datasets/broad`, never in the repository).
public struct BROADTrial: Sendable {
    /// The README's conversion constant from m/s² to g.
    public static let standardGravity = 9.81
    static let columns = [
        "t", "gyr_x", "gyr_y", "gyr_z", "acc_x", "acc_y", "acc_z", "mag_x", "mag_y", "mag_z",
        "movement", "q_w", "q_x", "q_y", "q_z",
    ]

    /// The file name without `.csv`, e.g. `02_undisturbed_slow_rotation_B`.
    public var name: String
    public var rows: [BROADRow]

    public var samples: [MotionSample] { rows.map(\.sample) }

    /// Mean time between rows (3.5 ms in the published trials).
    public var samplePeriod: Double {
        rows.count > 1 ? (rows[rows.count - 1].t - rows[0].t) / Double(rows.count - 1) : 0
    }

    public static func read(path: String) throws -> BROADTrial {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw LogError(file: path, line: 0, message: "no such file, or it cannot be read")
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try read(LineReader(path: path), file: path, name: name)
    }

    /// A trial already in memory; `name` is the trial's name and what errors call it.
    public static func parse(_ text: String, name: String) throws -> BROADTrial {
        try read(LineReader(text: text), file: name, name: name)
    }

    /// The dataset is curated, so anything unexpected in it is an error (with file:line), never
    /// a skipped row: a benchmark must run on exactly the published data.
    static func read(_ lines: LineReader, file: String, name: String) throws -> BROADTrial {
        guard let header = try lines.next() else {
            throw LogError(file: file, line: 1, message: "expected the header \"\(columns.joined(separator: ","))\", but the file is empty")
        }
        let names = Fields.split(header.text).map(String.init)
        let missing = columns.filter { !names.contains($0) }
        guard missing.isEmpty else {
            throw LogError(
                file: file, line: header.number,
                message: "expected the header \"\(columns.joined(separator: ","))\", got \(Fields.quoted(Substring(header.text))): missing \(missing.joined(separator: ", "))")
        }
        let index = columns.map { names.firstIndex(of: $0)! }
        var rows: [BROADRow] = []
        while let line = try lines.next() {
            if line.text.isEmpty { continue }
            let fields = Fields.split(line.text)
            guard fields.count == names.count else {
                throw LogError(file: file, line: line.number, message: "expected \(names.count) fields, got \(fields.count)")
            }
            var v = [Double](repeating: 0, count: columns.count)
            for (k, column) in columns.enumerated() {
                let field = fields[index[k]]
                guard let value = Fields.number(field), value.isFinite || column.hasPrefix("q_") else {
                    let expected = column.hasPrefix("q_") ? "a number or nan" : "a finite number"
                    throw LogError(file: file, line: line.number, column: column, message: "expected \(expected), got \(Fields.quoted(field))")
                }
                v[k] = value
            }
            guard v[10] == 0 || v[10] == 1 else {
                throw LogError(file: file, line: line.number, column: "movement", message: "expected 0 or 1, got \(Fields.quoted(fields[index[10]]))")
            }
            let q = Quaternion(w: v[11], x: v[12], y: v[13], z: v[14])
            let truthKnown = [q.w, q.x, q.y, q.z].allSatisfy(\.isFinite) && q.norm > 0
            rows.append(
                BROADRow(
                    t: v[0], rotationRate: Vector3(v[1], v[2], v[3]),
                    acceleration: -(1 / standardGravity) * Vector3(v[4], v[5], v[6]),
                    magneticField: Vector3(v[7], v[8], v[9]), movement: v[10] == 1,
                    truth: truthKnown ? q.normalized : nil))
        }
        return BROADTrial(name: name, rows: rows)
    }
}

/// The folder of BROAD trials, `../shared/datasets/broad` beside the repository, or the folder
/// `IMU_BROAD_DATASET` names (a checkout elsewhere, e.g. a git worktree; the scripts read it too).
public enum BROADDataset {
    /// The environment variable that names the dataset folder instead of the default.
    public static let environmentVariable = "IMU_BROAD_DATASET"

    /// The dataset folder for the repository at `repositoryRoot` (`environment`'s
    /// `IMU_BROAD_DATASET` when set and not empty), or nil when it is absent (benchmarks and
    /// tests then skip with a message).
    public static func directory(besideRepository repositoryRoot: String,
                                 environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path: String
        if let named = environment[environmentVariable], !named.isEmpty {
            path = URL(fileURLWithPath: named).standardized.path
        } else {
            path = URL(fileURLWithPath: repositoryRoot).appendingPathComponent("../shared/datasets/broad").standardized.path
        }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue ? path : nil
    }

    /// The trials' CSV paths in `directory`, sorted by name (so by trial number).
    public static func trialPaths(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".csv") }
            .sorted()
            .map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
    }
}
