#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import IMUGeometry

/// Experiment (issue 28; off unless `FusionParameters.deviceFixedFieldMaxRatio` > 0): does the
/// field turn with the device? A magnet fixed to the device (BROAD trial 32) keeps the field's
/// norm and dip, so the disturbance detector cannot see it, but it turns the field with the
/// device: over a turn Δψ about the vertical, the field's horizontal direction in the 6D frame
/// (which the gyro turns with the device) moves by ≈ Δψ·|b_h|/|m_h| for a device-fixed part b,
/// and only by the gyro's sensitivity error times Δψ (a few %) for a field fixed to the earth.
///
/// The direction is compared between quiet moments (the low-passed rate below
/// `magneticNewFieldMinRate`: the inclination has settled, so a 1° inclination error does not
/// pass for ~2.5° of direction at a 68° dip) with at least `deviceFixedFieldMinTurn` turned
/// between them: |Δdirection| / |Δψ| ≤ `deviceFixedFieldMaxRatio` says "fixed to the earth",
/// above it "turns with the device". The verdict holds until the next turn long enough to judge.
public struct DeviceFixedFieldTest: Sendable, Equatable {
    public enum Verdict: Int8, Sendable { case unknown = 0, fixedToEarth = 1, turnsWithDevice = -1 }
    public var verdict = Verdict.unknown
    /// Whether a quiet moment has set the anchor.
    public var hasAnchor = false
    /// The field's horizontal direction in the 6D frame at the last sample (rad, atan2(x, y)),
    /// and how far it has moved since the anchor (rad, unwrapped sample by sample, so a turn
    /// past 180° is not folded back: at 800°/s the samples are < 30° apart).
    public var lastDirection: Double = 0
    public var directionChange: Double = 0
    /// The angle turned about the vertical since the anchor (rad, signed, from the gyro).
    public var turned: Double = 0
    /// The last judged |Δdirection| / |Δψ|, for diagnostics.
    public var lastRatio: Double = 0

    public init() {}

    /// Adds one gyro step's turn about the vertical (rad, signed).
    @inline(__always)
    public mutating func addTurn(_ angle: Double) { turned += angle }

    /// One magnetometer sample `field6D` (the field in the 6D frame); `quiet`: not turning.
    public mutating func update(field6D m: Vector3, quiet: Bool, minTurn: Double, maxRatio: Double) {
        let horizontal = (m.x * m.x + m.y * m.y).squareRoot()
        // A field within ~6° of vertical has no direction worth comparing: start again.
        guard horizontal > 0.1 * m.length else {
            hasAnchor = false
            return
        }
        let direction = atan2(m.x, m.y)
        if hasAnchor { directionChange += Self.wrapped(direction - lastDirection) }
        lastDirection = direction
        guard quiet else { return }
        if hasAnchor && abs(turned) >= minTurn {
            lastRatio = abs(directionChange) / abs(turned)
            verdict = lastRatio <= maxRatio ? .fixedToEarth : .turnsWithDevice
        }
        hasAnchor = true
        directionChange = 0
        turned = 0
    }

    /// An angle into (−π, π].
    static func wrapped(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if a > .pi { a -= 2 * .pi } else if a <= -.pi { a += 2 * .pi }
        return a
    }
}
