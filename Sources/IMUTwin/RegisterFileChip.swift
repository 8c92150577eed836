/// An emulator whose registers are one `RegisterFile`: power-on and the identity fault are
/// written once here, the chip keeping only its own reset (`loadDefaults`: FIFO, pointer,
/// timers beyond the register defaults).
protocol RegisterFileChip: I2CTarget {
    var registers: RegisterFile { get set }
    /// The virtual time the chip has caught up to.
    var lastTime: Double { get set }
    /// A soft or device reset: the registers' defaults and the chip's own state.
    func loadDefaults()
}

extension RegisterFileChip {
    public func powerOnReset(at time: Double) {
        lastTime = time
        registers.powerOn()
        loadDefaults()
    }

    public func overrideIdentity(_ value: UInt8?) {
        registers.overrideIdentity(value)
    }
}
