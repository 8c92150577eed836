import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// A real terminal for the live views' tests: a tmux server of its own (a private socket, so
/// the tests never touch anyone's tmux), one window of a given size running `imu`, whose screen
/// and scrollback the test reads as a person would see them.
final class TmuxSession {
    static let tmux = "/usr/bin/tmux"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: tmux) }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let socket = "imu-test-\(UUID().uuidString.prefix(8))"

    /// Starts `imu arguments…` in a `columns` × `rows` window; the pane stays after it exits.
    init(_ arguments: [String], columns: Int, rows: Int, environment: [String: String] = [:], directory: String? = nil) throws {
        let executable = try IMUExecutable.url().path
        let command = ([executable] + arguments).map(Self.quoted).joined(separator: " ")
        let exports = environment.map { "export \($0.key)=\(Self.quoted($0.value)); " }.joined()
            + (directory.map { "cd \(Self.quoted($0)) && " } ?? "")
        // The pane stays when `imu` has exited (remain-on-exit), so its last words can be read.
        configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
        try "set -g remain-on-exit on\nset -g history-limit 10000\n".write(to: configuration, atomically: true, encoding: .utf8)
        try tmux(["-f", configuration.path, "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "t",
                  "/bin/sh -c " + Self.quoted(exports + command + "; echo; echo \"[exit $?]\"")])
    }

    private let configuration: URL

    /// Ends the server (and whatever still runs in it).
    func close() {
        // kill-server leaves a server with a remain-on-exit pane running here; without its
        // session the server exits by itself.
        _ = try? tmux(["kill-session", "-t", "t"])
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: configuration)
    }

    deinit { close() }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try Spawn.run([Self.tmux, "-L", socket] + arguments, environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else { throw Failure(description: "tmux \(arguments.joined(separator: " ")): \(result)") }
        return result.stdout
    }

    /// The screen (and, with `history`, the scrollback above it), one string per row; `joined`
    /// joins rows the terminal wrapped, so a wrapped line shows as fewer rows than unjoined.
    func capture(history: Bool = true, joined: Bool = false) throws -> [String] {
        var arguments = ["capture-pane", "-p", "-t", "t"]
        if history { arguments += ["-S", "-", "-E", "-"] }
        if joined { arguments.append("-J") }
        var rows = try tmux(arguments).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while rows.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { rows.removeLast() }
        return rows
    }

    /// The scrollback and screen as one text, for failure messages.
    var dump: String { ((try? capture()) ?? []).joined(separator: "\n") }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"])
    }

    func type(_ keys: String) throws { try tmux(["send-keys", "-t", "t", "-l", keys]) }

    /// Polls the screen every 50 ms until `condition` holds (true) or `seconds` pass (false).
    func wait(within seconds: Double, until condition: ([String]) -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(try capture(history: false)) { return true }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return condition(try capture(history: false))
    }

    /// Waits for `imu` to end; its exit status.
    func exitStatus(within seconds: Double) async throws -> Int? {
        var status: Int?
        _ = try await wait(within: seconds) { rows in
            guard let line = rows.last(where: { $0.hasPrefix("[exit ") }) else { return false }
            status = Int(line.dropFirst(6).prefix { $0.isNumber })
            return true
        }
        return status
    }
}
