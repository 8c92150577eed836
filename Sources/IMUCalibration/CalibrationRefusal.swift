/// Why a calibration step did not produce a result: said in words a person holding the device
/// can act on ("moved during the window: gyro std 0.31 °/s on y exceeds 0.25 °/s").
public struct CalibrationRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        /// The device moved while it should have been still.
        case moved
        /// Too few samples or too short a window.
        case notEnoughData
        /// A pose held off-axis, repeated, or otherwise unusable.
        case badPose
        /// The fitted values are implausible or the data cannot support a fit.
        case poorFit
    }

    public var kind: Kind
    public var reason: String

    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    public var description: String { reason }
}
