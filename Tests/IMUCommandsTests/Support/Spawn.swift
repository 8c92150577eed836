import CIMUProcess
import Foundation
import IMUDevices
import IMUEngine
import IMUFormats

/// Runs a program to its end, synchronously, without Foundation's Process: standard input from
/// /dev/null, standard output and error into files, the child reaped with waitpid. (A program
/// that leaves a daemon behind, as tmux's first command does, keeps a pipe open for ever, and
/// Process's own reaping did not see the tmux client's exit in these tests.)
enum Spawn {
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\nstdout: \(stdout.suffix(2000))\nstderr: \(stderr.suffix(2000))" }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `arguments[0]` is the program's path; `environment` is the whole environment.
    static func run(_ arguments: [String], environment: [String: String], directory: String? = nil) throws -> Result {
        // In `directory`: through a shell that changes there and becomes the program.
        let arguments = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0] + arguments } ?? arguments
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imu-spawn-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out").path, err = scratch.appendingPathComponent("err").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child = pid_t()
        // posix_spawn hands the child every descriptor not close-on-exec, the sockets NIO accepts for
        // the dashboard tests among them (all test targets share one process): a child that lives on
        // would hold a connection open after its server closed it. (Foundation's Process closes them.)
        _ = imu_process_spawn_actions_close_from(&actions, 3)
        let spawned = posix_spawn(&child, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return Result(
            status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
    }
}
