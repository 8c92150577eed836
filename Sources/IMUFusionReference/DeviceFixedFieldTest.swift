import IMUGeometry

/// Does the field turn with the device (issue 28; on while `FusionParameters.deviceFixedFieldMaxRatio`
/// > 0)? A magnet fixed to the device (BROAD trial 32) keeps the field's norm and dip, so the
/// disturbance detector cannot see it, but it turns the field with the device: over a turn Δψ
/// about the vertical, the field's horizontal direction in the 6D frame (which the gyro turns
/// with the device) moves by ≈ Δψ·|b_h|/|m_h| for a device-fixed part b, and only by the gyro's
/// sensitivity error times Δψ (a few %) for a field fixed to the earth.
///
/// The direction is compared between quiet moments (the low-passed rate below
/// `magneticNewFieldMinRate`: the inclination has settled, so a 1° inclination error does not
/// pass for ~2.5° of direction at a 68° dip) with at least `deviceFixedFieldMinTurn` turned
/// between them: |Δdirection| ≤ `deviceFixedFieldMaxRatio` · |Δψ| says "fixed to the earth",
/// above it "turns with the device". The verdict holds until the next turn long enough to judge.
///
/// One algorithm for both cores (the fixed core's `FixedDeviceFixedFieldTest` in integers):
/// Δψ comes from the decimated step (the span's mean rate less the bias, along the vertical,
/// times the span); the direction's change per magnetometer sample is the angle θ between
/// consecutive horizontal fields a, b as 4(a × b)/|a + b|² (= 2·tan(θ/2) for equal norms, the
/// heading error's form: one division, no square root, no atan2), clipped at ±π, summed.
public struct DeviceFixedFieldTest: Sendable, Equatable {
    public enum Verdict: Int8, Sendable { case unknown = 0, fixedToEarth = 1, turnsWithDevice = -1 }
    public var verdict = Verdict.unknown
    /// Whether a quiet moment has set the anchor.
    public var hasAnchor = false
    /// The field's horizontal part in the 6D frame at the last sample (µT), and how far its
    /// direction has moved since the anchor (rad, summed sample by sample, so a turn past 180°
    /// is not folded back: at 800°/s the samples are < 30° apart).
    public var lastHorizontalX: Double = 0
    public var lastHorizontalY: Double = 0
    public var directionChange: Double = 0
    /// The angle turned about the vertical since the anchor (rad, signed, from the gyro).
    public var turned: Double = 0
    /// The last judged |Δdirection| / |Δψ|, for diagnostics.
    public var lastRatio: Double = 0
    /// The last judged turn moved the field's direction by at least `deviceFixedFieldFollowRatio`
    /// of it: the field follows the device more than the earth.
    public var followsDevice = false
    /// The turn since the anchor per device axis, ∫ω_i·u_i dt (rad; `GyroSensitivityEstimator`'s
    /// regressor; summed only while that estimator is on).
    public var turnedPerAxis = Vector3.zero
    /// The turn about the horizontal axes since the anchor, as a rotation vector in the 6D frame
    /// (rad, x and y; z unused): a gyro sensitivity error tilts the 6D frame by up to that much
    /// times the error, which moves the field's direction (the estimator's noise).
    public var turnedHorizontal = Vector3.zero

    /// The sums from one quiet moment to the next: the field's direction change, the turn per
    /// device axis and about the horizontal axes, and the verdict when the span was a turn judged.
    public struct Span: Sendable, Equatable {
        public var verdict: Verdict?
        public var directionChange: Double
        public var turnedPerAxis: Vector3
        public var turnedHorizontal: Vector3
    }

    public init() {}

    /// Adds one decimated step's turn about the vertical (rad, signed).
    @inline(__always)
    public mutating func addTurn(_ angle: Double) { turned += angle }

    /// The same turn per device axis (rad: the bias-free rate times up, per axis, times the span),
    /// and the turn about the 6D frame's horizontal axes (rad, z = 0).
    @inline(__always)
    public mutating func addTurn(perAxis turn: Vector3, horizontal: Vector3) {
        turnedPerAxis += turn
        turnedHorizontal += horizontal
    }

    /// One magnetometer sample `field6D` (the field in the 6D frame); `quiet`: not turning.
    /// Returns the span since the last quiet moment when this sample is a quiet one after it.
    /// `followRatio`: see `followsDevice` (never, by default).
    @discardableResult
    public mutating func update(
        field6D m: Vector3, quiet: Bool, minTurn: Double, maxRatio: Double, followRatio: Double = .infinity
    ) -> Span? {
        let horizontalSquared = m.x * m.x + m.y * m.y
        // A field within ~6° of vertical (|m_h| ≤ 0.1·|m|) has no direction worth comparing: start again.
        guard 99 * horizontalSquared > m.z * m.z else {
            hasAnchor = false
            return nil
        }
        if hasAnchor { directionChange += Self.angle(from: (lastHorizontalX, lastHorizontalY), to: (m.x, m.y)) }
        (lastHorizontalX, lastHorizontalY) = (m.x, m.y)
        guard quiet else { return nil }
        var span: Span?
        if hasAnchor {
            var judged: Verdict?
            if abs(turned) >= minTurn {
                lastRatio = abs(directionChange) / abs(turned)
                verdict = abs(directionChange) <= maxRatio * abs(turned) ? .fixedToEarth : .turnsWithDevice
                followsDevice = abs(directionChange) >= followRatio * abs(turned)
                judged = verdict
            }
            span = Span(
                verdict: judged, directionChange: directionChange, turnedPerAxis: turnedPerAxis,
                turnedHorizontal: turnedHorizontal)
        }
        hasAnchor = true
        directionChange = 0
        turned = 0
        turnedPerAxis = .zero
        turnedHorizontal = .zero
        return span
    }

    /// The angle from a to b (rad, counter-clockwise positive) as 4(a × b)/|a + b|², clipped at ±π.
    public static func angle(from a: (x: Double, y: Double), to b: (x: Double, y: Double)) -> Double {
        let cross = a.x * b.y - a.y * b.x
        let (sx, sy) = (a.x + b.x, a.y + b.y)
        let sum = sx * sx + sy * sy
        guard 4 * abs(cross) < .pi * sum else { return cross < 0 ? -.pi : .pi }
        return 4 * cross / sum
    }
}
