import IMUBus

/// Faults the virtual bus can inject, for reliability tests of drivers and of the layers above
/// them. Each is something real boards do: a loose jumper (NACKs), electrical noise (I/O
/// errors), a device holding SDA low (a stuck bus, which Linux reports as a timeout), a hat
/// pulled off and pushed back (unplug: power lost, registers back to defaults), a clone part
/// answering with a different WHO_AM_I.
public enum BusFault: Sendable, Equatable {
    /// The next `count` transactions (to `address`, or to any address when nil) are not acknowledged.
    case noAcknowledge(count: Int, address: UInt8?)
    /// Every transaction (to `address`, or any) between the two virtual times is not acknowledged.
    case noAcknowledgeWindow(from: Double, until: Double, address: UInt8?)
    /// The next `count` transactions (to `address`, or any) fail with an I/O error mid-transfer.
    case ioErrorBurst(count: Int, address: UInt8?)
    /// Every transaction times out until `until` (nil: until `clearFaults()`).
    case stuckBus(until: Double?)
    /// The chip at `address` loses power now and comes back `duration` seconds later, with its
    /// power-on register defaults (and `identityAfterReplug` in WHO_AM_I, when given).
    case unplug(address: UInt8, duration: Double, identityAfterReplug: UInt8?)
    /// Between the two virtual times the device at `address` (or any) still acknowledges, but
    /// every byte read is 0xFF and writes are lost: the data line floating high under its
    /// pull-up (a cracked joint on SDA, a chip browned out into a bad state). No bus error.
    case allOnesWindow(from: Double, until: Double, address: UInt8?)
}

/// The bus's record of faults under way; consulted once per transaction.
struct FaultState {
    var nackCount: [(remaining: Int, address: UInt8?)] = []
    var nackWindows: [(from: Double, until: Double, address: UInt8?)] = []
    var ioErrors: [(remaining: Int, address: UInt8?)] = []
    var stuckUntil: Double?? = nil
    /// address → (replug time, identity to show after replug)
    var unplugged: [UInt8: (replugAt: Double, identity: UInt8?)] = [:]
    var allOnesWindows: [(from: Double, until: Double, address: UInt8?)] = []

    /// Whether reads from `address` return all 0xFF now (and writes are lost).
    mutating func readsAllOnes(_ address: UInt8, at time: Double) -> Bool {
        // The usual case first: `removeAll(where:)` rebuilds even an empty array.
        guard !allOnesWindows.isEmpty else { return false }
        allOnesWindows.removeAll { time >= $0.until }
        return allOnesWindows.contains { time >= $0.from && ($0.address == nil || $0.address == address) }
    }

    /// The failure this transaction meets, if any; counts down the counted faults.
    mutating func failure(for address: UInt8, at time: Double) -> I2CErrorKindAndDetail? {
        // The usual case first, without hashing the address or rebuilding empty arrays.
        if stuckUntil == nil, unplugged.isEmpty, nackWindows.isEmpty, nackCount.isEmpty, ioErrors.isEmpty { return nil }
        if let stuck = stuckUntil {
            if let until = stuck, time >= until {
                stuckUntil = nil
            } else {
                return (.timeout, "injected fault: bus stuck")
            }
        }
        if let plug = unplugged[address], time < plug.replugAt {
            return (.noAcknowledge, "injected fault: device unplugged")
        }
        nackWindows.removeAll { time >= $0.until }
        if nackWindows.contains(where: { time >= $0.from && ($0.address == nil || $0.address == address) }) {
            return (.noAcknowledge, "injected fault: no acknowledge")
        }
        if let i = nackCount.firstIndex(where: { $0.address == nil || $0.address == address }) {
            nackCount[i].remaining -= 1
            if nackCount[i].remaining <= 0 { nackCount.remove(at: i) }
            return (.noAcknowledge, "injected fault: no acknowledge")
        }
        if let i = ioErrors.firstIndex(where: { $0.address == nil || $0.address == address }) {
            ioErrors[i].remaining -= 1
            if ioErrors[i].remaining <= 0 { ioErrors.remove(at: i) }
            return (.bus, "injected fault: I/O error")
        }
        return nil
    }
}

typealias I2CErrorKindAndDetail = (kind: I2CError.Kind, detail: String)
