import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The device's orientation as UIKit names it, read from which way gravity points in device axes.
public enum DeviceOrientation: String, Sendable, Equatable, CaseIterable {
    case unknown
    /// Upright, top up: gravity along −y.
    case portrait
    /// Upside down: gravity along +y.
    case portraitUpsideDown
    /// Turned so the top points left: gravity along −x.
    case landscapeLeft
    /// Turned so the top points right: gravity along +x.
    case landscapeRight
    /// Lying on its back, front up: gravity along −z.
    case faceUp
    /// Lying on its front: gravity along +z.
    case faceDown

    /// The direction gravity has (device axes, unit length) when the device is in this orientation.
    public var gravityDirection: Vector3? {
        switch self {
        case .unknown: nil
        case .portrait: Vector3(0, -1, 0)
        case .portraitUpsideDown: Vector3(0, 1, 0)
        case .landscapeLeft: Vector3(-1, 0, 0)
        case .landscapeRight: Vector3(1, 0, 0)
        case .faceUp: Vector3(0, 0, -1)
        case .faceDown: Vector3(0, 0, 1)
        }
    }

    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    public var isFlat: Bool { self == .faceUp || self == .faceDown }
}

/// Turns gravity into a `DeviceOrientation` with hysteresis: an orientation is entered only when
/// gravity lies within `captureAngle` of its axis, and kept until gravity comes that close to
/// another axis. With the default 35° a device lingering near a 45° boundary (10° of dead band
/// either side) keeps its orientation instead of flapping.
public struct OrientationRecognizer: Sendable, Equatable {
    public let captureAngleRadians: Double
    /// Below this length gravity says nothing (free fall, or no estimate yet), in g.
    public let minimumGravity: Double
    public private(set) var orientation: DeviceOrientation = .unknown

    public init(captureAngleDegrees: Double = 35, minimumGravity: Double = 0.5) {
        precondition(captureAngleDegrees > 0 && captureAngleDegrees < 45, "the capture angle must leave a dead band below 45°")
        captureAngleRadians = captureAngleDegrees * .pi / 180
        self.minimumGravity = minimumGravity
    }

    /// Feeds gravity (device axes, g); returns the new orientation when it changed, else nil.
    public mutating func update(gravity: Vector3) -> DeviceOrientation? {
        let length = gravity.length
        guard length >= minimumGravity else { return nil }
        let threshold = cos(captureAngleRadians) * length
        let candidates: [DeviceOrientation] = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight, .faceUp, .faceDown]
        guard let captured = candidates.first(where: { gravity.dot($0.gravityDirection!) >= threshold }),
              captured != orientation
        else { return nil }
        orientation = captured
        return captured
    }
}
