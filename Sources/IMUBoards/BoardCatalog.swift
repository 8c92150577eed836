import IMUConfigFile
import Foundation

/// Finds board files by name. Directories are searched in order and the first file with a
/// name wins, so a user's `$IMU_BOARDS_DIR` can override a shipped profile.
public struct BoardCatalog: Sendable {
    /// Where to look, first first.
    public var directories: [String]

    public init(directories: [String]) {
        self.directories = directories
    }

    /// The standard search order: `$IMU_BOARDS_DIR`, `<executable dir>/../share/imu/boards`,
    /// `/usr/local/share/imu/boards`, `/usr/share/imu/boards`, then the source tree's
    /// `Boards/` (for development builds run from a checkout).
    public static func standard(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executablePath: String? = BoardCatalog.runningExecutablePath()
    ) -> BoardCatalog {
        var dirs: [String] = []
        if let custom = environment["IMU_BOARDS_DIR"], !custom.isEmpty { dirs.append(custom) }
        if let exe = executablePath {
            let bin = (exe as NSString).deletingLastPathComponent
            dirs.append(((bin as NSString).appendingPathComponent("../share/imu/boards") as NSString).standardizingPath)
        }
        dirs += ["/usr/local/share/imu/boards", "/usr/share/imu/boards", sourceTreeBoardsDirectory]
        return BoardCatalog(directories: dirs)
    }

    /// `Boards/` of the checkout this file was compiled from.
    public static let sourceTreeBoardsDirectory: String = {
        // #filePath is …/Sources/IMUBoards/BoardCatalog.swift; Boards/ sits beside Sources/.
        let here = "\(#filePath)" as NSString
        let root = (here.deletingLastPathComponent as NSString).deletingLastPathComponent as NSString
        return ((root.deletingLastPathComponent as NSString).appendingPathComponent("Boards") as NSString).standardizingPath
    }()

    /// The real path of the running program (Linux: /proc/self/exe), nil if unknown.
    public static func runningExecutablePath() -> String? {
        if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return link }
        return CommandLine.arguments.first
    }

    /// Every profile name found, sorted.
    public func names() -> [String] {
        Array(files().keys).sorted()
    }

    /// Name → path, the first directory that has it winning.
    public func files() -> [String: String] {
        var found: [String: String] = [:]
        for dir in directories {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for entry in entries where entry.hasSuffix(".toml") {
                let name = String(entry.dropLast(".toml".count))
                if found[name] == nil { found[name] = (dir as NSString).appendingPathComponent(entry) }
            }
        }
        return found
    }

    /// The profile `--board` names. A name containing `/` or ending in `.toml` is a path and
    /// is loaded as is. Throws `BoardCatalogError.notFound` (listing the known names and the
    /// closest one) or the profile's own `BoardProfileError`.
    public func profile(named name: String) throws -> BoardProfile {
        if name.contains("/") || name.hasSuffix(".toml") {
            return try BoardProfile.load(from: name)
        }
        let files = files()
        guard let path = files[name] else {
            let known = files.keys.sorted()
            throw BoardCatalogError.notFound(
                name: name, known: known,
                suggestion: ClosestName.suggestion(for: name, among: known),
                searched: directories)
        }
        return try BoardProfile.load(from: path)
    }

    /// Every profile, loaded and validated; the first bad file stops the load.
    public func allProfiles() throws -> [BoardProfile] {
        try files().sorted { $0.key < $1.key }.map { try BoardProfile.load(from: $0.value) }
    }
}

public enum BoardCatalogError: Error, CustomStringConvertible, Sendable, Equatable {
    case notFound(name: String, known: [String], suggestion: String?, searched: [String])

    public var description: String {
        switch self {
        case let .notFound(name, known, suggestion, searched):
            var text = "no board profile named `\(name)`"
            if let suggestion { text += "; did you mean `\(suggestion)`?" }
            if known.isEmpty {
                text += " (no profiles found; searched \(searched.joined(separator: ", ")))"
            } else {
                text += " (known boards: \(known.joined(separator: ", ")))"
            }
            return text
        }
    }
}
