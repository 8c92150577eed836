#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why `/dev/i2c-N` could not be opened as an I²C bus: Linux states met before the first
/// transfer, each with the errno that said it. The words say what is the matter; what the user
/// can do about it (enable I²C, join the i2c group) is said where the error reaches them
/// (`LinuxHardware.advice(for:)` in IMUDevices, which the command line uses too).
public enum I2COpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no such device node, or no adapter behind it (ENOENT, ENODEV, ENXIO).
    case notFound(path: String, errno: LinuxErrno)
    /// The node exists but this user may not open it (EACCES, EPERM).
    case permissionDenied(path: String, errno: LinuxErrno)
    /// The node opened but is not an i2c-dev adapter: `I2C_FUNCS` failed (ENOTTY on a regular
    /// file or another kind of device).
    case notAnAdapter(path: String, errno: LinuxErrno)
    /// `open` failed for another reason (EBUSY, EIO, EMFILE, …).
    case cannotOpen(path: String, errno: LinuxErrno)

    /// Which of the cases the errno of `open` is.
    static func opening(_ path: String, failedWith errno: LinuxErrno) -> I2COpenError {
        switch errno.code {
        case ENOENT, ENODEV, ENXIO: .notFound(path: path, errno: errno)
        case EACCES, EPERM: .permissionDenied(path: path, errno: errno)
        default: .cannotOpen(path: path, errno: errno)
        }
    }

    public var path: String {
        switch self {
        case .notFound(let path, _), .permissionDenied(let path, _), .notAnAdapter(let path, _), .cannotOpen(let path, _): path
        }
    }

    public var errno: LinuxErrno {
        switch self {
        case .notFound(_, let errno), .permissionDenied(_, let errno), .notAnAdapter(_, let errno), .cannotOpen(_, let errno): errno
        }
    }

    public var description: String {
        switch self {
        case .notFound: "there is no I²C bus \(path) (\(errno))"
        case .permissionDenied: "permission denied opening \(path) (\(errno))"
        case .notAnAdapter: "\(path) is not an I²C adapter (I2C_FUNCS failed: \(errno))"
        case .cannotOpen: "cannot open the I²C bus \(path) (\(errno))"
        }
    }
}
