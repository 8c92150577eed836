import IMUCalibration
import IMUDrivers
import IMUShareClient

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
        guard let served = ServedChip(hello: hello), let model = ChipModel(rawValue: served.identity.chip) else {
            throw .daemon(ServedChip.missing(at: path))
        }
        self.path = path
        self.model = model
        capabilities = served.magnetometer ? [.accelerometer, .gyroscope, .magnetometer] : [.accelerometer, .gyroscope]
        identity = served.identity
        rateHz = served.rateHz
    }
}
