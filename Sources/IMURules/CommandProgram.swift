import Foundation
import IMUConfigFile
import IMUEvents

/// A command action's program, checked when the rules are loaded (not when the rule fires), and
/// the small environment it runs with.
public enum CommandProgram {
    /// Where a bare program name is looked up, and the PATH commands get: the daemon's own PATH,
    /// or this when it has none (systemd's default for services).
    public static let defaultSearchPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    public static var searchPath: String {
        if let path = ProcessInfo.processInfo.environment["PATH"], !path.isEmpty { return path }
        return defaultSearchPath
    }

    /// The arguments with the program made absolute (a bare name is looked up on `searchPath`),
    /// or an error at `file:line:column`: no program, a program that is missing or not
    /// executable, a NUL inside an argument (it would cut the argument short).
    public static func checked(
        _ arguments: [String], rule: String, file: String, line: Int, column: Int, searchPath: String = searchPath
    ) throws(ConfigFileError) -> [String] {
        func refuse(_ message: String) -> ConfigFileError {
            ConfigFileError(file: file, line: line, column: column, message: "`command` in rule \"\(rule)\" \(message)")
        }
        guard let program = arguments.first, !program.isEmpty else {
            throw refuse("must name a program, like [\"/usr/bin/logger\", \"shaken\"]")
        }
        if let index = arguments.firstIndex(where: { $0.utf8.contains(0) }) {
            throw refuse("has a NUL character in argument \(index + 1); arguments cannot contain NUL")
        }
        let resolved: String
        if program.contains("/") {
            guard program.hasPrefix("/") else {
                throw refuse("must be an absolute path or a program name found on PATH, found \"\(program)\"")
            }
            if let problem = problem(with: program) { throw refuse("names \"\(program)\", which \(problem)") }
            resolved = program
        } else {
            let directories = searchPath.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
            guard let found = directories.lazy.map({ $0 + "/" + program }).first(where: { problem(with: $0) == nil }) else {
                throw refuse("names \"\(program)\", which is not an executable program on PATH (\(searchPath))")
            }
            resolved = found
        }
        return [resolved] + arguments.dropFirst()
    }

    /// Why `path` cannot be run, or nil when it can.
    static func problem(with path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))" }
        guard info.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard access(path, X_OK) == 0 else { return "is not executable" }
        return nil
    }

    /// The whole environment a command gets (nothing of the daemon's own but PATH and LANG):
    /// PATH (the daemon's, or `defaultSearchPath`), LANG (the daemon's, or C.UTF-8), and the
    /// event in IMU_RULE, IMU_EVENT, IMU_EVENT_TIME, IMU_EVENT_JSON and one of IMU_PHASE,
    /// IMU_ORIENTATION, IMU_DIRECTION, IMU_HEADING_DEG.
    public static func environment(rule: String, event: MotionEvent) -> [String: String] {
        let daemon = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": searchPath,
            "LANG": daemon["LANG"].flatMap { $0.isEmpty ? nil : $0 } ?? "C.UTF-8",
            "IMU_RULE": rule,
            "IMU_EVENT": event.type,
            "IMU_EVENT_TIME": String(event.timestamp),
            "IMU_EVENT_JSON": event.jsonLine,
        ]
        switch event {
        case .shake(let shake):
            switch shake {
            case .began: environment["IMU_PHASE"] = "began"
            case .ended: environment["IMU_PHASE"] = "ended"
            case .cancelled: environment["IMU_PHASE"] = "cancelled"
            }
        case .orientation(let orientation, _): environment["IMU_ORIENTATION"] = orientation.rawValue
        case .slap(let slap): environment["IMU_DIRECTION"] = slap.direction.rawValue
        case .heading(let degrees, _): environment["IMU_HEADING_DEG"] = String(degrees)
        }
        return environment
    }
}
