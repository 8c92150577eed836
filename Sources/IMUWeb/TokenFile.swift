import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The checks a secret file passes before it is believed: whoever else could have written it
/// could have chosen the token (a plant), whoever else could read it knows it.
enum TokenFile {
    /// The text of `path`, nil when there is no such file. Refused (with the path and the fix):
    /// a symbolic link, anything but a regular file, a file of another user than `owner` (when
    /// given), a file the group or others may read or write.
    static func readPrivate(_ path: String, owner: uid_t?) throws(AccessToken.TokenError) -> String? {
        // O_NOFOLLOW: a link planted in the token's place is not followed; O_NONBLOCK: a FIFO
        // planted there does not hang the open.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw .init(message: "\(path) is a symbolic link, not the token file: remove it (`rm \(path)`), and a new token is made at the next start")
            }
            throw .init(message: "cannot read \(path): \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw .init(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        if let problem = problem(mode: status.st_mode, fileOwner: status.st_uid, expectedOwner: owner) {
            throw .init(message: "refusing the token in \(path): \(problem)")
        }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw .init(message: "cannot read \(path): \(String(cString: strerror(errno)))") }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// Why a file with `mode` owned by `fileOwner` is not a private token file of
    /// `expectedOwner` (nil: any owner), with the fix; nil when it is one. Pure, for tests.
    static func problem(mode: mode_t, fileOwner: uid_t, expectedOwner: uid_t?) -> String? {
        guard mode & S_IFMT == S_IFREG else {
            return "it is not a regular file; remove it, and a new token is made at the next start"
        }
        if let expectedOwner, fileOwner != expectedOwner {
            return "it belongs to uid \(fileOwner), not to this daemon's user (uid \(expectedOwner)), so someone else may have chosen it; "
                + "remove it, and a new token is made at the next start"
        }
        let permissions = mode & 0o777
        if permissions & 0o077 != 0 {
            return "its mode is \(octal(permissions)): the group or others may read or change it, so it may be known; "
                + "remove it, and a new token is made at the next start (only the owner may read it: mode 0600)"
        }
        return nil
    }

    /// Makes `directory` (0700) when it is not there. One that is there must not be writable by
    /// the group or others (they could swap the token file) unless only owners may remove files
    /// in it (sticky), and must belong to this user or root.
    static func makeDirectory(_ directory: String) throws(AccessToken.TokenError) {
        var status = stat()
        if stat(directory, &status) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .init(message: "cannot make the state directory \(directory): \(error.localizedDescription)")
            }
            return
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .init(message: "the state directory \(directory) is not a directory") }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw .init(message: "the state directory \(directory) belongs to uid \(status.st_uid), not to this user (uid \(geteuid())) or root; "
                + "choose another with STATE_DIRECTORY or XDG_STATE_HOME")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw .init(message: "the state directory \(directory) has mode \(octal(status.st_mode & 0o7777)): others may replace files in it; "
                + "`chmod go-w \(directory)` or choose another with STATE_DIRECTORY or XDG_STATE_HOME")
        }
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
