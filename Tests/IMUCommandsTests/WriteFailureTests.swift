import Foundation
import IMULog
import Synchronization
import Testing
import IMUDevices
import IMUEngine
import IMUFormats

/// Every write failure is an error: a full file system, a file-size limit or a full device ends
/// the command with a non-zero status and a message naming the output and the cause, and a
/// recording keeps what it wrote before, ending at a complete line. A reader that closes its
/// pipe (`imu read | head`) is a normal end.
///
/// How: a real full file system (a small tmpfs mounted for the test; needs root and mount(2),
/// else that case says so and passes), a real file-size limit (`ulimit -f`, EFBIG; any user),
/// and /dev/full (ENOSPC on every write) as standard output.
@Suite struct WriteFailureTests {
    /// Runs imu with standard output to `stdout` (a file handle), through `sh -c` with `prefix`
    /// before the exec (a ulimit); waits for the end.
    func run(_ arguments: [String], prefix: String = "", stdout: FileHandle? = nil, environment: [String: String] = [:])
        async throws -> (status: Int32, stderr: String)
    {
        let quoted = ([try IMUExecutable.url().path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try await runToEnd("/bin/sh", ["-c", prefix + " exec " + quoted.joined(separator: " ")], stdout: stdout, environment: environment)
    }

    /// The samples a failed recording says it kept: N in "after N of the M samples read".
    func keptCount(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: "after ") else { return nil }
        return Int(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// A recording the disk cannot hold: non-zero, the path and the cause named, and the file a
    /// valid log of exactly the samples the message says were kept.
    func expectCutRecording(_ outcome: (status: Int32, stderr: String), path: String, cause: String) throws {
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("cannot write \(path): \(cause)"), "\(outcome.stderr)")
        let kept = try #require(keptCount(outcome.stderr), "\(outcome.stderr)")
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.last == 0x0A, "the file ends mid-line")
        let log = try ReplayLog.read(path: path)
        #expect(log.report.skippedTotal == 0, "\(log.report)")
        #expect(log.samples.count == kept && kept > 100, "kept \(kept), the file holds \(log.samples.count)")
    }

    @Test func aRecordingOnAFullFileSystemFailsAndEndsAtACompleteLine() async throws {
        guard let disk = SmallFileSystem(kibibytes: 64) else { return }
        defer { disk.remove() }
        let path = disk.path + "/walk.csv"
        let outcome = try await run(["record", "--sim", "shake", "--virtual-time", "--rate", "200", "--duration", "600", "--output", path])
        try expectCutRecording(outcome, path: path, cause: "No space left on device")
    }

    @Test func aRecordingPastTheFileSizeLimitFailsAndEndsAtACompleteLine() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-fsize-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // 100 blocks of 512 bytes (POSIX sh's unit): ~600 samples of CSV.
        let outcome = try await run(
            ["record", "--sim", "shake", "--virtual-time", "--rate", "200", "--duration", "600", "--output", path], prefix: "ulimit -f 100;")
        try expectCutRecording(outcome, path: path, cause: "File too large")
    }

    /// /dev/full as standard output: every stdout writer fails loudly instead of ending with 0,
    /// those with their own buffering (LineOutput) and those that print().
    @Test(arguments: [
        ["read", "--sim", "--virtual-time", "--count", "3000", "--format", "csv"],
        ["stream", "--sim", "--virtual-time", "--count", "3000", "--format", "csv"],
        ["events", "--sim", "shake", "--virtual-time", "--duration", "10", "--format", "jsonl"],
        ["demo", "tilt", "--sim", "--virtual-time", "--duration", "5"],
        // print()'s stdio buffer, flushed and checked at exit
        ["probe", "--sim"],
        ["read", "--list-scenarios"],
    ]) func aFullStandardOutputIsAnError(arguments: [String]) async throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let outcome = try await run(arguments, stdout: full)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains("cannot write standard output: No space left on device"), "\(outcome.stderr)")
    }

    /// The reader closing the pipe after a few lines (`imu read | head`): exit 0, nothing said.
    @Test func aClosedPipeIsANormalEnd() async throws {
        let pipe = Pipe()
        let reader = pipe.fileHandleForReading
        // The reader, on a thread of its own: 4 KiB, then it closes its end.
        let received = Mutex(0)
        Thread.detachNewThread {
            var count = 0
            while count < 4096 {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                count += chunk.count
            }
            received.withLock { $0 = count }
            try? reader.close()
        }
        // No end of its own: only the closed pipe stops it.
        let outcome = try await runToEnd(try IMUExecutable.url().path, ["read", "--sim", "--virtual-time", "--format", "csv"], stdout: pipe.fileHandleForWriting)
        try? pipe.fileHandleForWriting.close()
        #expect(received.withLock { $0 } >= 4096)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    }

    /// A chart on a full disk: an error naming it and the cause; no chart, no stray temporary.
    @Test func aPlotOnAFullFileSystemFails() async throws {
        guard let disk = SmallFileSystem(kibibytes: 64) else { return }
        defer { disk.remove() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("imu-plot-\(UUID()).csv").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let recorded = try await run(["record", "--sim", "tilt", "--virtual-time", "--duration", "4", "--output", log])
        try #require(recorded.status == 0, "\(recorded)")
        try disk.fill()
        let chart = disk.path + "/chart.svg"
        let outcome = try await run(["plot", log, "--output", chart])
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.stderr.contains(chart) && outcome.stderr.contains("No space left on device"), "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == ["filler"])
    }

    /// A calibration that cannot be saved: an error naming the file and the cause.
    @Test func aCalibrationThatCannotBeSavedFails() async throws {
        guard let disk = SmallFileSystem(kibibytes: 64) else { return }
        defer { disk.remove() }
        try FileManager.default.createDirectory(atPath: disk.path + "/imu", withIntermediateDirectories: true)
        try disk.fill()
        let outcome = try await run(["calibrate", "gyro", "--sim", "--virtual-time"], environment: ["XDG_CONFIG_HOME": disk.path])
        #expect(outcome.status != 0, "\(outcome)")
        #expect(outcome.stderr.contains(disk.path + "/imu/lsm9ds1-sim-0x6a.toml") && outcome.stderr.contains("No space left on device"),
                "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: disk.path + "/imu/lsm9ds1-sim-0x6a.toml"))
    }
}

/// A tmpfs of a few KiB mounted for one test: a real file system that fills up. Nil (having
/// said why) where mounting is not permitted (not root, or no CAP_SYS_ADMIN in a container).
struct SmallFileSystem {
    let path: String

    init?(kibibytes: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imu-full-\(UUID())").path
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else { return nil }
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(kibibytes)k,mode=0755") == 0 else {
            print("cannot mount a tmpfs here (\(String(cString: strerror(errno)))); skipping this full-file-system case")
            rmdir(path)
            return nil
        }
        self.path = path
    }

    /// Fills what is left with one file, `filler`.
    func fill() throws {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x55, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
    }

    func remove() {
        umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }
}
