import IMUGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a fusion filter's attitude into the reference frame a user asked for. The filter gives
/// either a magnetic-north ENU attitude (9D) or an attitude with an arbitrary heading (6D); the
/// frames differ only by a turn about the vertical.
public struct FrameConversion: Sendable, Equatable {
    public let frame: ReferenceFrame
    /// Degrees east of true north that magnetic north lies (for `xTrueNorthZVertical`).
    public let declinationDegrees: Double?
    /// The yaw removed so an arbitrary-heading frame starts at 0 (set from the first attitude).
    private var startYaw: Double?

    /// nil when `frame` cannot be offered: true north without a declination.
    public init?(frame: ReferenceFrame, declinationDegrees: Double? = nil) {
        if frame == .xTrueNorthZVertical && declinationDegrees == nil { return nil }
        self.frame = frame
        self.declinationDegrees = declinationDegrees
    }

    /// `filterAttitude` (magnetic north ENU for 9D, arbitrary for 6D) in `frame`.
    public mutating func attitude(from filterAttitude: Quaternion) -> Attitude {
        let turn: Double
        switch frame {
        case .xMagneticNorthZVertical:
            turn = 0
        case .xTrueNorthZVertical:
            // Magnetic north is D east of true north: yaw against true north is smaller by D.
            turn = -(declinationDegrees ?? 0) * .pi / 180
        case .xArbitraryZVertical, .xArbitraryCorrectedZVertical:
            let yaw = startYaw ?? filterAttitude.eulerAngles.yaw
            startYaw = yaw
            turn = -yaw
        }
        let about = Quaternion(axis: Vector3(0, 0, 1), angle: turn)
        return Attitude(quaternion: about * filterAttitude, referenceFrame: frame)
    }
}
