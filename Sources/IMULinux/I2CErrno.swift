#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IMUBus

/// Which call an errno came from: the same code means different things at different steps
/// (ENODEV on open is "no such bus"; during a transfer, i2c-stub's "nobody at this address").
enum I2CStep: Sendable, Equatable {
    case open, functions, selectTarget, transfer
}

/// The one table from errno to `I2CError.Kind`, following the kernel's
/// Documentation/i2c/fault-codes.rst. The first rule that matches wins; anything else is `.io`.
enum I2CErrno {
    struct Rule: Sendable {
        var codes: [Int32]
        /// nil: at any step.
        var steps: [I2CStep]?
        var kind: I2CError.Kind
    }

    static let rules: [Rule] = [
        Rule(codes: [ENOENT, ENODEV], steps: [.open], kind: .notFound),
        Rule(codes: [EACCES, EPERM], steps: nil, kind: .permissionDenied),
        // I2C_SLAVE says EBUSY when a kernel driver is bound to the address.
        Rule(codes: [EBUSY], steps: [.selectTarget], kind: .busy),
        // Adapters say ENXIO or EREMOTEIO for a missing ack; i2c-stub says ENODEV.
        Rule(codes: [ENXIO, EREMOTEIO, ENODEV], steps: [.transfer], kind: .noAcknowledge),
        // EBUSY mid-transfer: the bus stayed busy (SDA held low) longer than the adapter waits.
        Rule(codes: [ETIMEDOUT, EBUSY], steps: [.transfer], kind: .timeout),
        // An ioctl this descriptor or adapter does not do (ENOTTY: not an i2c-dev node at all).
        Rule(codes: [EOPNOTSUPP, ENOTTY, EINVAL], steps: nil, kind: .unsupported),
        // EAGAIN: arbitration lost to another master.
        Rule(codes: [EAGAIN, EIO, EPROTO, EBADMSG], steps: nil, kind: .io),
    ]

    static func kind(for errno: LinuxErrno, during step: I2CStep) -> I2CError.Kind {
        for rule in rules where rule.codes.contains(errno.code) {
            if rule.steps == nil || rule.steps!.contains(step) {
                return rule.kind
            }
        }
        return .io
    }
}
