/// A device on the virtual I²C bus, seen the way an I²C slave sees the wire: a write
/// transaction (the first byte sets the register pointer, further bytes are written from the
/// pointer on), a read transaction (bytes come from the pointer on, by the chip's own
/// auto-increment rules), and power. The bus calls `catchUp(to:)` with the current virtual
/// time before every transaction, so a target computes its samples lazily.
public protocol I2CTarget: AnyObject {
    /// Brings the chip's sampled state up to `time` (seconds): samples due since the last call
    /// are produced (into the FIFO, status flags, interrupt lines).
    func catchUp(to time: Double)

    /// A write transaction: `bytes[0]` is the register (sub-)address, the rest are data.
    /// An empty write (address only, as `i2cdetect -q` does) changes nothing.
    func write(_ bytes: UnsafeRawBufferPointer)

    /// A read transaction: fills `buffer` from the register pointer on.
    func read(into buffer: UnsafeMutableRawBufferPointer)

    /// Power was removed and restored at `time`: every register back to its power-on default.
    func powerOnReset(at time: Double)

    /// Makes the WHO_AM_I register read `value` (nil: the chip's own) until the next power-on
    /// reset or call; models a different part answering after a replug.
    func overrideIdentity(_ value: UInt8?)

    /// Fills the FIFO past its capacity now, so the overflow flag is set (no-op without FIFO).
    func forceFIFOOverflow()

    /// Whether the target answers its address now (false: the bus says no acknowledge). Only a
    /// die behind another's I²C bypass (MPU-9250's AK8963) is ever silent.
    var acknowledges: Bool { get }
}

extension I2CTarget {
    public var acknowledges: Bool { true }
    public func overrideIdentity(_ value: UInt8?) {}
    public func forceFIFOOverflow() {}
}
