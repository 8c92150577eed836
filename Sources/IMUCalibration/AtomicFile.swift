import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file so that, whatever moment the process dies at (or the power fails, on a
/// journalling file system), the path holds either the old content or the new, complete:
/// 1. write a temporary file in the same directory (same file system, so rename is atomic);
/// 2. fsync it, so its data is on disk before its name is;
/// 3. rename it over the target (atomic replacement, POSIX);
/// 4. fsync the directory, so the rename itself is on disk.
/// A crash before step 3 leaves a stray `.NAME.PID.tmp` and the old file untouched; readers
/// only ever open the target name.
public enum AtomicFile {
    /// The points between the steps, for tests that simulate a crash there.
    public enum Step: String, Sendable, CaseIterable {
        case createdTemporary, wroteHalf, wroteAll, syncedTemporary, renamed, syncedDirectory
    }

    /// Thrown by a checkpoint to stop the write at that step the way a crash would: nothing
    /// is cleaned up.
    public struct SimulatedCrash: Error, Sendable {
        public init() {}
    }

    public static func write(_ text: String, to path: String, permissions: mode_t = 0o644) throws(CalibrationFileError) {
        try write(Array(text.utf8), to: path, permissions: permissions, checkpoint: { _ in })
    }

    /// `checkpoint` runs after each step; if it throws `SimulatedCrash` the write stops on
    /// the spot (no cleanup) and returns, leaving the files as if the process had been killed
    /// there, for the caller to inspect.
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: mode_t = 0o644,
        checkpoint: (Step) throws(SimulatedCrash) -> Void
    ) throws(CalibrationFileError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = CalibrationDirectory.join(directory, ".\(name).\(getpid()).tmp")
        func failure(_ what: String, _ code: Int32 = errno) -> CalibrationFileError {
            CalibrationFileError(file: path, line: 0, message: "cannot write: \(what): \(String(cString: strerror(code)))")
        }

        // A stray temporary of this process (an earlier crash simulation) is replaced.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else {
            // The temporary file's name is ours, not the user's: name the folder that refused it.
            let code = errno
            throw CalibrationFileError(
                file: path, line: 0,
                message: code == ENOENT
                    ? "cannot write: the folder \(directory) does not exist"
                    : "cannot write: cannot create a file in \(directory): \(String(cString: strerror(code)))")
        }
        var closed = false
        var renamed = false
        // The steps; a failure comes back as a value, a simulated crash as a throw.
        func steps() throws(SimulatedCrash) -> CalibrationFileError? {
            try checkpoint(.createdTemporary)
            let half = bytes.count / 2
            if let e = writeAll(fd, bytes[..<half]) { return failure("write \(temporary)", e) }
            try checkpoint(.wroteHalf)
            if let e = writeAll(fd, bytes[half...]) { return failure("write \(temporary)", e) }
            try checkpoint(.wroteAll)
            if fsync(fd) != 0 { return failure("fsync \(temporary)") }
            try checkpoint(.syncedTemporary)
            closed = true
            if close(fd) != 0 { return failure("close \(temporary)") }
            if rename(temporary, path) != 0 { return failure("rename to \(path)") }
            renamed = true
            try checkpoint(.renamed)
            let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dirfd >= 0 {
                // Some file systems refuse fsync on directories (EINVAL); the rename has still
                // happened, so that is not a failure of the write.
                _ = fsync(dirfd)
                close(dirfd)
            }
            try checkpoint(.syncedDirectory)
            return nil
        }
        let outcome: CalibrationFileError?
        do {
            outcome = try steps()
        } catch {
            // A simulated crash: leave everything as a killed process would, except the
            // descriptor, which the kernel would close.
            if !closed { close(fd) }
            return
        }
        if let outcome {
            if !closed { close(fd) }
            if !renamed { unlink(temporary) }
            throw outcome
        }
    }

    /// Removes from `directory` the `.NAME.PID.tmp` files that saves killed midway left behind
    /// (power cut, kill -9), when their process is gone; a live process's may still be writing
    /// and is kept. Only regular files; the paths removed, for the log. For a program's start,
    /// before it writes there itself.
    @discardableResult
    public static func removeLeftovers(in directory: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names.sorted() {
            guard let pid = leftoverPID(name), !isRunning(pid) else { continue }
            let path = CalibrationDirectory.join(directory, name)
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The PID in a temporary's name, `.NAME.PID.tmp`; nil for any other name.
    static func leftoverPID(_ name: String) -> Int32? {
        guard name.count > 6, name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let middle = name.dropFirst().dropLast(4)
        guard let dot = middle.lastIndex(of: "."), dot > middle.startIndex else { return nil }
        let digits = middle[middle.index(after: dot)...]
        // The digits counted and bounded before any conversion: a pid_t is positive and 32-bit.
        guard (1...10).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }),
              let pid = Int64(digits), pid > 0, pid <= Int64(Int32.max) else { return nil }
        return Int32(pid)
    }

    /// kill(pid, 0): 0 or EPERM means a process has that PID (possibly another user's).
    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// write(2) until everything is written; the errno on failure.
    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int32? {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }
}
