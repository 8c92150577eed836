#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IMUBus

/// The one table from errno (as the C bridge returns it, negated) to `GPIOError`.
enum GPIOErrno {
    static func kind(for errno: LinuxErrno) -> GPIOError.Kind {
        switch errno.code {
        case EBUSY: .busy
        case EACCES, EPERM: .permissionDenied
        case ENOENT, ENODEV: .notFound
        case EINVAL: .invalidLine
        // ENOTTY: the path is not a GPIO character device.
        case EOPNOTSUPP, ENOTTY: .unsupported
        default: .io
        }
    }

    /// The error a user sees: the kind, the errno text, and for `.busy` who holds the line.
    static func error(_ errno: LinuxErrno, chip: String, line: Int? = nil, consumer: String? = nil) -> GPIOError {
        let kind = kind(for: errno)
        var detail = errno.description
        if kind == .busy, let consumer, !consumer.isEmpty {
            detail += "; held by \"\(consumer)\""
        }
        return GPIOError(kind, chip: chip, line: line, detail: detail)
    }
}
