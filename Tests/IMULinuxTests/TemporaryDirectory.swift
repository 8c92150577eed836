#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/imu-linux-tests-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        _ = system("rm -rf '\(path)'")
    }

    /// Creates the directories of `relative` (like mkdir -p) and returns the absolute path.
    @discardableResult
    func directory(_ relative: String) -> String {
        var current = path
        for part in relative.split(separator: "/") {
            current += "/\(part)"
            mkdir(current, 0o755)
        }
        return current
    }

    /// Writes `text` to `relative`, making its directories.
    @discardableResult
    func file(_ relative: String, _ text: String = "") -> String {
        let parts = relative.split(separator: "/")
        if parts.count > 1 { directory(parts.dropLast().joined(separator: "/")) }
        let full = "\(path)/\(relative)"
        let descriptor = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0, "cannot create \(full)")
        _ = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        return full
    }

    func symlink(_ relative: String, to target: String) {
        let parts = relative.split(separator: "/")
        directory(parts.dropLast().joined(separator: "/"))
        precondition(Glibc.symlink(target, "\(path)/\(relative)") == 0)
    }
}
