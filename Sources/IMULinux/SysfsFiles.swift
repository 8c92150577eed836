#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Small reads of /dev and /sys, for naming things in listings and error messages (never on
/// the sample path). Every function answers nil when the file is not there.
enum SysfsFiles {
    /// The names in `directory`, without `.` and `..`.
    static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A small text file's first line, without the newline (sysfs attributes such as `name`).
    static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        let text = bytes[..<count].prefix { $0 != 0x0A }
        return String(decoding: text, as: UTF8.self)
    }

    /// The last path component a symbolic link points to (a `driver` link's driver name).
    static func linkTargetName(of path: String) -> String? {
        var bytes = [CChar](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
        guard count > 0 else { return nil }
        let target = bytes[..<count].map { UInt8(bitPattern: $0) }
        let name = target.split(separator: UInt8(ascii: "/")).last ?? target[...]
        return String(decoding: name, as: UTF8.self)
    }
}
