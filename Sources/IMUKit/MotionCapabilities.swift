import IMUDrivers

/// The sensors a program needs, declared up front (like `UIRequiredDeviceCapabilities`), so
/// hardware that lacks one is refused when the manager is made instead of failing later.
public struct MotionCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let accelerometer = MotionCapabilities(rawValue: 1 << 0)
    public static let gyroscope = MotionCapabilities(rawValue: 1 << 1)
    public static let magnetometer = MotionCapabilities(rawValue: 1 << 2)

    /// What `chip` offers.
    public init(_ chip: ChipCapabilities) {
        self = []
        if chip.accelerometer { insert(.accelerometer) }
        if chip.gyroscope { insert(.gyroscope) }
        if chip.magnetometer { insert(.magnetometer) }
    }

    public var description: String {
        let names = [(Self.accelerometer, "accelerometer"), (.gyroscope, "gyroscope"), (.magnetometer, "magnetometer")]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
