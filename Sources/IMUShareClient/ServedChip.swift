import IMUCalibration

/// What a daemon's hello says about the chip it serves: which chip (its stored calibration is
/// found by that), whether it has a magnetometer, the rate it samples at, and the frame of its
/// motion stream.
public struct ServedChip: Sendable, Equatable {
    public let identity: ChipIdentity
    public let magnetometer: Bool
    public let rateHz: Double
    /// `ReferenceFrame`'s raw value; nil from a daemon that does not say.
    public let referenceFrame: String?

    /// nil when the hello lacks the chip's identity or its rate (an older daemon).
    public init?(hello: [String: JSONValue]) {
        guard case .string(let chip)? = hello["chip"], case .string(let board)? = hello["board"], case .string(let bus)? = hello["bus"],
              case .string(let addressText)? = hello["address"], addressText.hasPrefix("0x"),
              let address = Int(addressText.dropFirst(2), radix: 16),
              case .number(let rateHz)? = hello["rate_hz"], rateHz > 0
        else { return nil }
        identity = ChipIdentity(chip: chip, board: board, bus: bus, address: address)
        magnetometer = hello["magnetometer"] == .bool(true)
        self.rateHz = rateHz
        if case .string(let frame)? = hello["frame"] { referenceFrame = frame } else { referenceFrame = nil }
    }

    /// The error for a hello without it.
    public static func missing(at path: String) -> String {
        "the imu daemon at \(path) does not say which chip it serves and at what rate (chip, board, bus, address, rate_hz in its hello: an older daemon?)"
    }
}
