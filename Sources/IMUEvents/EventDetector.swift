import IMUGeometry
import IMUMotion

/// All the recognisers on one stream of device motion: gravity for the orientation, user
/// acceleration for shakes and slaps, the heading (when there is one) through a heading filter.
public struct EventDetector: Sendable {
    public var orientation = OrientationRecognizer()
    public var shake = ShakeRecognizer()
    public var slap = SlapRecognizer()
    /// Heading changes at least this big (Core Location's `headingFilter`) are events; nil: none.
    public var headingFilter: HeadingFilter?

    public init(headingFilterDegrees: Double? = nil) {
        headingFilter = headingFilterDegrees.map(HeadingFilter.init(minimumChangeDegrees:))
    }

    /// Feeds one instant of device motion (device axes, g); returns what it completed, in the order
    /// orientation, shake, slap, heading.
    public mutating func update(
        gravity: Vector3, userAcceleration: Vector3, heading: Double?, timestamp t: Double
    ) -> [MotionEvent] {
        var events: [MotionEvent] = []
        if let changed = orientation.update(gravity: gravity) { events.append(.orientation(changed, timestamp: t)) }
        if let phase = shake.update(userAcceleration: userAcceleration, timestamp: t) { events.append(.shake(phase)) }
        if let slapped = slap.update(userAcceleration: userAcceleration, timestamp: t) {
            events.append(.slap(slapped))
            // The stop that made the slap is not a shake's swing back.
            shake.dismissSwings()
        }
        if let heading, let reported = headingFilter?.filter(heading) {
            events.append(.heading(degrees: reported, timestamp: t))
        }
        return events
    }
}
