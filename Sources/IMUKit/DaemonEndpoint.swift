import IMUCalibration
import IMUDrivers
import IMUShare

/// A daemon that owns the chip, as its hello describes it: which chip (its stored calibration is
/// found by that), what it has, and the rate it samples at.
struct DaemonEndpoint: Sendable {
    let path: String
    let model: ChipModel
    let capabilities: MotionCapabilities
    let identity: ChipIdentity
    let rateHz: Double

    /// Connects to `path` and reads the hello; the connection is closed again (each run of the
    /// manager subscribes on a connection of its own).
    init(path: String) throws(MotionManagerError) {
        let hello: [String: JSONValue]
        do {
            hello = try DaemonClient(path: path).hello
        } catch {
            throw .daemon(error.description)
        }
        guard case .string(let chipName)? = hello["chip"], let model = ChipModel(rawValue: chipName),
              case .string(let board)? = hello["board"], case .string(let bus)? = hello["bus"],
              case .string(let addressText)? = hello["address"], addressText.hasPrefix("0x"),
              let address = Int(addressText.dropFirst(2), radix: 16),
              case .number(let rateHz)? = hello["rate_hz"], rateHz > 0
        else {
            throw .daemon("the imu daemon at \(path) does not say which chip it serves and at what rate (chip, board, bus, address, rate_hz in its hello: an older daemon?)")
        }
        self.path = path
        self.model = model
        var capabilities: MotionCapabilities = [.accelerometer, .gyroscope]
        if hello["magnetometer"] == .bool(true) { capabilities.insert(.magnetometer) }
        self.capabilities = capabilities
        identity = ChipIdentity(chip: chipName, board: board, bus: bus, address: address)
        self.rateHz = rateHz
    }
}
