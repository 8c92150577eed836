// Conversions to and from Double, for the host only (tests, the CLI, the Double reference):
// the firmware build (Embedded Swift on a Cortex-M0+) must not contain a single floating-point
// operation, and Scripts/check-embedded.sh fails if one slips in, so this file compiles to
// nothing there.
#if !hasFeature(Embedded)

extension FixedPointNumber {
    /// `2^fractionBits` as a Double.
    @inlinable
    public static var scale: Double { Double(sign: .plus, exponent: fractionBits, significand: 1) }

    /// The nearest representable value (ties away from zero), **saturating** at `min`/`max`;
    /// NaN becomes zero.
    @inlinable
    public init(_ value: Double) {
        let scaled = value * Self.scale
        if scaled.isNaN {
            self.init(raw: 0)
        } else if scaled >= 2_147_483_647 {
            self.init(raw: .max)
        } else if scaled <= -2_147_483_648 {
            self.init(raw: .min)
        } else {
            // Round half away from zero by hand: `rounded()` would call libm's `round`, which a
            // client that links neither Foundation nor Glibc does not have.
            let truncated = Int64(scaled)  // towards zero; exact, |scaled| < 2^31
            let fraction = scaled - Double(truncated)  // exact
            let rounded = fraction >= 0.5 ? truncated + 1 : fraction <= -0.5 ? truncated - 1 : truncated
            self.init(raw: Int32(clamping: rounded))
        }
    }

    /// The exact value as a Double (every 32-bit fixed-point value is representable).
    @inlinable
    public var doubleValue: Double { Double(raw) / Self.scale }
}

extension Double {
    /// The exact value of a fixed-point number.
    @inlinable
    public init<Fixed: FixedPointNumber>(_ value: Fixed) { self = value.doubleValue }
}

extension Q30: CustomStringConvertible {
    public var description: String { "\(doubleValue)" }
}

extension Q29: CustomStringConvertible {
    public var description: String { "\(doubleValue)" }
}

extension Q16: CustomStringConvertible {
    public var description: String { "\(doubleValue)" }
}

#endif
