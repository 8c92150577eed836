#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The `errno` a failed system call left, kept as a value (as swift-system's `Errno` does) so
/// it can travel in typed throws and be shown to a user with its symbolic name.
public struct LinuxErrno: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(_ code: Int32) {
        self.code = code
    }

    /// The calling thread's `errno`, read right after the failing call.
    static var current: LinuxErrno { LinuxErrno(errno) }

    /// The C name (`EBUSY`) of the codes an I²C or GPIO user can meet.
    public var name: String? {
        switch code {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EBUSY: "EBUSY"
        case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"
        case ENOTTY: "ENOTTY"
        case EPROTO: "EPROTO"
        case EBADMSG: "EBADMSG"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ETIMEDOUT: "ETIMEDOUT"
        case EREMOTEIO: "EREMOTEIO"
        case ESHUTDOWN: "ESHUTDOWN"
        default: nil
        }
    }

    /// The C library's sentence for the code (`strerror`; glibc's is thread-safe for known codes).
    public var text: String { String(cString: strerror(code)) }

    /// `EBUSY: Device or resource busy`.
    public var description: String { name.map { "\($0): \(text)" } ?? "errno \(code): \(text)" }
}
