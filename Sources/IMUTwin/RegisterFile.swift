/// A chip's registers as every emulator keeps them, with the reset and identity rules written
/// once: 128 bytes, the power-on defaults (the identity register's value among them), and an
/// identity a fault can override (a different part answering after a replug) until the next
/// power-on. A soft or device reset reloads the defaults and keeps the override (the part
/// does not change by a reset); a power-on reset clears it.
struct RegisterFile {
    private var bytes = [UInt8](repeating: 0, count: 128)
    private let defaults: [UInt8: UInt8]
    let identityRegister: UInt8
    private var identityOverride: UInt8?

    init(defaults: [UInt8: UInt8], identityRegister: UInt8, identity: UInt8) {
        var defaults = defaults
        defaults[identityRegister] = identity
        self.defaults = defaults
        self.identityRegister = identityRegister
        loadDefaults()
    }

    subscript(_ index: Int) -> UInt8 {
        get { bytes[index] }
        set { bytes[index] = newValue }
    }

    subscript(_ register: UInt8) -> UInt8 {
        get { bytes[Int(register)] }
        set { bytes[Int(register)] = newValue }
    }

    /// What the identity register reads.
    var identity: UInt8 { identityOverride ?? bytes[Int(identityRegister)] }

    /// A soft or device reset: every register back to its default.
    mutating func loadDefaults() {
        bytes = [UInt8](repeating: 0, count: 128)
        for (register, value) in defaults { bytes[Int(register)] = value }
    }

    /// Power removed and restored.
    mutating func powerOn() {
        loadDefaults()
        identityOverride = nil
    }

    mutating func overrideIdentity(_ value: UInt8?) {
        identityOverride = value
    }
}
