/// What both AKM magnetometer dies (the MPU-9250's AK8963, RM9 §5; the ICM-20948's AK09916,
/// DS §13) do alike between their registers, kept here once: when measurements are due (a
/// single measurement a fixed time after it is asked for; the continuous modes on their rate's
/// grid, a measurement nobody read before the next being a data overrun), and data protection
/// (once a data read has begun, a new measurement waits until reading ST2 ends the read).
struct AKMeasurementCycle {
    private var lastTick: Int64 = 0
    private var singleDue: Double?
    /// A data read has begun and ST2 has not been read yet.
    private(set) var reading = false
    /// A measurement made while reading, shown when ST2 is read.
    private var held: (values: [Int16], overflow: Bool)?

    /// What is due from the last catch-up until `time`: a single measurement's time (after
    /// which the die is back in power-down), else the newest measurement on the continuous
    /// grid at `rateHz` (0: not continuous) and whether one before it went unmeasured.
    mutating func due(at time: Double, rateHz: Double) -> (single: Double?, continuous: Double?, skipped: Bool) {
        if let due = singleDue, time >= due {
            singleDue = nil
            return (due, nil, false)
        }
        guard rateHz > 0 else { return (nil, nil, false) }
        let target = Int64((time * rateHz).rounded(.down))
        guard target > lastTick else { return (nil, nil, false) }
        defer { lastTick = target }
        return (nil, Double(target) / rateHz, target > lastTick + 1)
    }

    /// The mode register was written at `time`: the continuous grid restarts from there, and a
    /// single measurement (when `single`) becomes due `singleSeconds` later.
    mutating func modeWritten(at time: Double, rateHz: Double, single: Bool, singleSeconds: Double) {
        if rateHz > 0 { lastTick = Int64((time * rateHz).rounded(.down)) }
        singleDue = single ? time + singleSeconds : nil
    }

    /// A measurement was made: what to show in the data registers now (nil: held until ST2).
    mutating func measured(_ values: [Int16], overflow: Bool) -> (values: [Int16], overflow: Bool)? {
        guard reading else { return (values, overflow) }
        held = (values, overflow)
        return nil
    }

    /// A data register (or, on the AK8963, ST1) was read.
    mutating func beginRead() { reading = true }

    /// ST2 was read: the data read ends; what was held, to show now.
    mutating func endRead() -> (values: [Int16], overflow: Bool)? {
        reading = false
        defer { held = nil }
        return held
    }

    /// A soft reset or power-on: nothing due, nothing held.
    mutating func reset() {
        singleDue = nil
        reading = false
        held = nil
    }
}
