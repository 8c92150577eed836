import IMUEvents

/// iio-sensor-proxy's `AccelerometerOrientation` values: which edge of the screen is up, the
/// screen's natural orientation being "normal". Its definitions (src/orientation.c and its test,
/// accelerometer readings in Core Motion's sign, gravity down): y = −1 g is normal, y = +1 g
/// bottom-up, x = +1 g (gravity toward the right edge, so the left edge is up) left-up,
/// x = −1 g right-up. The device frame is the screen's (x right, y up, z out of the front).
public enum ScreenOrientation: String, CaseIterable, Sendable {
    case undefined
    case normal
    case bottomUp = "bottom-up"
    case leftUp = "left-up"
    case rightUp = "right-up"

    /// The screen orientation for a device orientation from our recogniser (its 35° capture
    /// angle and dead band are the hysteresis). Lying flat (faceUp, faceDown) says nothing about
    /// which edge is up, so the screen keeps `previous`, as iio-sensor-proxy keeps its last
    /// orientation while the device lies flat.
    public static func of(_ device: DeviceOrientation, previous: ScreenOrientation) -> ScreenOrientation {
        switch device {
        case .portrait: .normal
        case .portraitUpsideDown: .bottomUp
        // UIKit's landscapeRight: turned clockwise, gravity +x, right edge down.
        case .landscapeRight: .leftUp
        case .landscapeLeft: .rightUp
        case .faceUp, .faceDown, .unknown: previous
        }
    }

    /// The shim's code (the order of iio-sensor-proxy's names).
    var code: Int32 {
        switch self {
        case .undefined: 0
        case .normal: 1
        case .bottomUp: 2
        case .leftUp: 3
        case .rightUp: 4
        }
    }
}
