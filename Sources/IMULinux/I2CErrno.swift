#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import IMUBus

/// Which call an errno came from: the same code means different things at different steps
/// (ENODEV on open is "no such bus", `I2COpenError`; during a transfer, i2c-stub's "nobody at
/// this address").
enum I2CStep: Sendable, Equatable {
    case open, functions, selectTarget, transfer
}

/// The one table from a transfer's errno to `I2CError.Kind` (embedded-hal's kinds), following
/// the kernel's Documentation/i2c/fault-codes.rst. The first rule that matches wins; anything
/// else is `.other`, the errno in the error's detail. Opening the bus has its own error,
/// `I2COpenError`.
enum I2CErrno {
    struct Rule: Sendable {
        var codes: [Int32]
        /// nil: at any step.
        var steps: [I2CStep]?
        var kind: I2CError.Kind
    }

    static let rules: [Rule] = [
        // Adapters say ENXIO (fault-codes.rst: no ack in the address phase) or EREMOTEIO for a
        // missing ack; i2c-stub says ENODEV.
        Rule(codes: [ENXIO, EREMOTEIO, ENODEV], steps: [.transfer], kind: .noAcknowledge),
        // EIO: a generic fault on the wire; EPROTO: a byte the protocol forbids (an SMBus block
        // length over 32); EBADMSG: an SMBus PEC mismatch.
        Rule(codes: [EIO, EPROTO, EBADMSG], steps: nil, kind: .bus),
        // EAGAIN: arbitration lost to another master.
        Rule(codes: [EAGAIN], steps: [.transfer], kind: .arbitrationLoss),
        // EBUSY mid-transfer: the bus stayed busy (SDA held low) longer than the adapter waits.
        // (EBUSY from I2C_SLAVE is a kernel driver owning the address: `.other`, named.)
        Rule(codes: [ETIMEDOUT, EBUSY], steps: [.transfer], kind: .timeout),
    ]

    static func kind(for errno: LinuxErrno, during step: I2CStep) -> I2CError.Kind {
        for rule in rules where rule.codes.contains(errno.code) {
            if rule.steps == nil || rule.steps!.contains(step) {
                return rule.kind
            }
        }
        return .other
    }
}
