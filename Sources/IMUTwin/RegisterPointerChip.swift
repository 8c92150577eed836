/// A target whose write transactions move one register pointer, written once: the first byte
/// sets the pointer, each further byte is stored there and the pointer moves on by the chip's
/// own rule (auto-increment, a FIFO port that does not advance, a wrap). Each chip gives its
/// rule and what a store does.
protocol RegisterPointerChip: I2CTarget {
    var pointer: UInt8 { get set }
    /// The register a write's first byte addresses.
    func register(addressedBy byte: UInt8) -> UInt8
    /// Where the pointer goes after `register` in a burst.
    func register(after register: UInt8) -> UInt8
    func store(_ value: UInt8, at register: UInt8)
}

extension RegisterPointerChip {
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard let first = bytes.first else { return }
        pointer = register(addressedBy: first)
        for byte in bytes.dropFirst() {
            store(byte, at: pointer)
            pointer = register(after: pointer)
        }
    }
}

/// An AKM magnetometer die (AK8963, AK09916): its reads follow the same pointer rule as its
/// writes, and it catches up on its measurement cycle the same way, so both are written once.
protocol AKMagnetometerDie: RegisterPointerChip {
    func load(_ register: UInt8) -> UInt8
    var lastTime: Double { get set }
    var cycle: AKMeasurementCycle { get set }
    /// Measurements per second in the continuous modes (0 otherwise).
    var sampleRateHz: Double { get }
    /// Measures the field at `time` into the data registers (or holds it during a read).
    func measure(at time: Double)
    /// Back to power-down after a single measurement.
    func endSingleMeasurement()
    /// A measurement nobody read was skipped: DOR, when DRDY is still set.
    func noteSkippedMeasurement()
}

extension AKMagnetometerDie {
    public func catchUp(to time: Double) {
        guard time > lastTime else { return }
        defer { lastTime = time }
        let due = cycle.due(at: time, rateHz: sampleRateHz)
        if let single = due.single {
            measure(at: single)
            endSingleMeasurement()
        } else if let next = due.continuous {
            if due.skipped { noteSkippedMeasurement() }  // the newest is kept
            measure(at: next)
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) {
        for i in 0..<buffer.count {
            buffer[i] = load(pointer)
            pointer = register(after: pointer)
        }
    }

    /// The AKM dies take the whole byte as the register address.
    func register(addressedBy byte: UInt8) -> UInt8 { byte }
}
