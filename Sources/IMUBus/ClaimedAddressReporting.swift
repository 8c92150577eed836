/// A bus on which an address can be owned by someone else: on Linux, a kernel driver bound to
/// the chip there (i2cdetect's `UU`; `I2C_SLAVE` says EBUSY). Such an address is present (a
/// scan lists it) but not ours to talk to. Optional: buses where nothing else can own an
/// address (the twin, a microcontroller's peripheral) do not conform.
public protocol ClaimedAddressReporting: AnyObject {
    /// Who owns `address` and how to free it, in the platform's words; nil when it is ours to
    /// talk to (or nothing is there).
    func claim(of address: UInt8) -> String?
}
