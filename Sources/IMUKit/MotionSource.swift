/// What a motion manager delivers; each has its own availability, active flag and update interval.
public enum MotionSource: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case accelerometer
    case gyro
    case magnetometer
    case deviceMotion

    public var description: String {
        switch self {
        case .accelerometer: "accelerometer"
        case .gyro: "gyroscope"
        case .magnetometer: "magnetometer"
        case .deviceMotion: "device motion"
        }
    }
}
